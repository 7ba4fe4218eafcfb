import Foundation

/// What ties one file to another of the same moment: the identifier Apple gives a Live Photo's
/// still and clip, and the camera that took it.
public struct MediaIdentity: Sendable, Equatable {
    /// A Live Photo's content identifier: the still's Apple maker note tag 0x11 (exiftool's
    /// MediaGroupUUID), the clip's `com.apple.quicktime.content.identifier` key.
    public var contentIdentifier: String?
    /// IFD0's Make and Model, as one string.
    public var camera: String?
    /// The XMP property that says the still carries its clip inside (a motion photo).
    public var motionPhoto: String?

    public init(contentIdentifier: String? = nil, camera: String? = nil, motionPhoto: String? = nil) {
        self.contentIdentifier = contentIdentifier
        self.camera = camera
        self.motionPhoto = motionPhoto
    }

    /// From a photo's EXIF: Make and Model in IFD0, and Apple's maker note in the EXIF IFD.
    public init(_ structures: [TIFFStructure]) {
        self.init()
        for tiff in structures {
            if self.camera == nil {
                let parts = [0x010F, 0x0110].compactMap { tag in
                    tiff.entry(UInt16(tag), in: [.main(0)]).flatMap(tiff.string)?.trimmingCharacters(in: .whitespaces)
                }.filter { !$0.isEmpty }
                if !parts.isEmpty { self.camera = parts.joined(separator: " ") }
            }
            if self.contentIdentifier == nil, let note = MakerNote(in: tiff), note.maker == .apple,
                let identifier = note.structure.entry(0x0011, in: [.makerNote]).flatMap(note.structure.string),
                !identifier.isEmpty
            {
                self.contentIdentifier = identifier
            }
        }
    }
}

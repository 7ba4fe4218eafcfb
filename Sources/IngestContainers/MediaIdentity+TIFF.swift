import Foundation
import IngestCore

extension MediaIdentity {
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

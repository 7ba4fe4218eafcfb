import Foundation

/// What ties one file to another of the same moment: the identifier Apple gives a Live Photo's
/// still and clip, and the camera that took it.
public struct MediaIdentity: Sendable, Equatable {
    /// A Live Photo's content identifier: the still's Apple maker note tag 0x11 (exiftool's
    /// MediaGroupUUID), the clip's `com.apple.quicktime.content.identifier` key.
    public var contentIdentifier: String?
    /// IFD0's Make and Model, as one string.
    public var camera: String?
    /// The body that took the file: Make, Model and serial number.
    public var body = CameraBody()
    /// The XMP property that says the still carries its clip inside (a motion photo).
    public var motionPhoto: String?

    public init(contentIdentifier: String? = nil, camera: String? = nil, motionPhoto: String? = nil) {
        self.contentIdentifier = contentIdentifier
        self.camera = camera
        self.motionPhoto = motionPhoto
    }
}

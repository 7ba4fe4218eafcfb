import Foundation
import IngestCore
import IngestDating

/// What an earlier run learned of a file's content: enough to place it against a new event's
/// window, and to tell whether the event holds it already, without opening it again.
public struct KnownFacts: Sendable, Equatable {
    /// The file as it was when these facts were learned: they hold only while it is unchanged.
    public var stamp: FileStamp
    public var sha256: ContentHash
    public var kind: MediaKind
    public var capture: CaptureTime
    /// A failure in the file's own bytes (it does not decode) that an earlier run met, in any
    /// event: the same bytes fail the same way in every event.
    public var failure: IngestError?
    /// The body that took it, as the file said.
    public var camera = CameraBody()
    /// The fingerprint of the XMP sidecar it was dated with: the capture time holds only while
    /// that is unchanged too.
    public var sidecar: String?

    public init(
        stamp: FileStamp, sha256: ContentHash, kind: MediaKind, capture: CaptureTime, failure: IngestError? = nil,
        camera: CameraBody = CameraBody()
    ) {
        self.camera = camera
        self.stamp = stamp
        self.sha256 = sha256
        self.kind = kind
        self.capture = capture
        self.failure = failure
    }
}

import Foundation
import IngestCore

/// What an earlier run learned of a file's content: enough to place it against a new event's
/// window, and to tell whether the event holds it already, without opening it again.
public struct KnownFacts: Sendable, Equatable {
    /// The file as it was when these facts were learned: they hold only while it is unchanged.
    public var stamp: FileStamp
    public var sha256: ContentHash
    public var kind: MediaKind
    public var capture: CaptureTime

    public init(stamp: FileStamp, sha256: ContentHash, kind: MediaKind, capture: CaptureTime) {
        self.stamp = stamp
        self.sha256 = sha256
        self.kind = kind
        self.capture = capture
    }
}

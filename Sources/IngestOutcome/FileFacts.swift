import Foundation
import IngestCore
import IngestDating
import IngestDiscovery

/// What a run learns of one file, once, whatever the number of events: the same in each.
///
/// A file that could not be read has only its path (and its stamp, when it could be looked
/// at); one that was read has its kind and hash; one that was dated has its capture time.
public struct FileFacts: Sendable, Equatable {
    public var path: String
    public var stamp: FileStamp?
    public var kind: MediaKind?
    public var sha256: ContentHash?
    public var capture: CaptureTime?
    /// The file this one was paired with; a paired file goes to the events of its pair's first
    /// file (a Live Photo's still, a raw photo's JPEG).
    public var pair: FilePair?
    /// The body that took it, as the file says (make, model, serial); nil before it was read.
    public var camera: CameraBody?
    /// The XMP sidecar beside it, found by the walk.
    public var sidecar: Sidecar?

    public init(
        path: String, stamp: FileStamp?, kind: MediaKind? = nil, sha256: ContentHash? = nil,
        capture: CaptureTime? = nil, pair: FilePair? = nil
    ) {
        self.path = path
        self.stamp = stamp
        self.kind = kind
        self.sha256 = sha256
        self.capture = capture
        self.pair = pair
    }

    /// The facts of a file the walk found, before it is opened: its path and stamp.
    public init(_ file: DiscoveredFile) {
        self.init(path: file.path, stamp: file.stamp)
        self.sidecar = file.sidecar
    }

    public var size: Int64? { self.stamp?.size }
}

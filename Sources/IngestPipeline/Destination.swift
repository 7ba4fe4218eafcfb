import IngestCore
import IngestImaging

/// A photo or video ready to be stored: its bytes as read (a video's stay in its file), its
/// metadata and its thumbnails.
public struct PreparedPhoto: Sendable {
    public var file: LoadedFile
    public var capture: CaptureTime
    /// Nil for a video none of whose frames could be decoded: it is stored all the same.
    public var thumbnails: Thumbnails?

    /// The original's base name, as the upload form and the archive index record it (text:
    /// bytes that are not UTF-8 as `\xNN`).
    public var filename: String {
        PathBytes.unicode(String(self.file.file.path.split(separator: "/").last ?? ""))
    }
}

/// Where photos go: the local archive (the embedded default) or a PhotoShare server.
public protocol Destination: Sendable {
    /// A stable name for the catalog: a file done for one destination is not done for another.
    var identity: String { get }

    /// Makes the event known to the destination and says where the hashes it already holds for
    /// it come from: fetched now, or read on first need where that is as safe.
    func prepare(_ event: Event) async throws(IngestError) -> HashSet.Source

    /// Stores the photo in the event.
    func store(_ photo: PreparedPhoto, in event: Event) async throws(IngestError) -> StoreResult

    /// True when ``store(_:in:)`` reads the original from its file rather than from memory, so
    /// that the pipeline can let go of the bytes while the photo waits for its turn.
    var readsOriginalFromDisk: Bool { get }

    /// Counters for the run's summary (requests, retries, …).
    var statistics: [String: Int] { get }

    /// For a destination that uploads, its uploads sending and queued, for the progress line.
    var uploads: UploadCounts? { get }
}

extension Destination {
    public var readsOriginalFromDisk: Bool { false }
    public var statistics: [String: Int] { [:] }
    public var uploads: UploadCounts? { nil }
}

public enum StoreResult: Sendable, Equatable {
    case stored
    /// The destination already held these bytes for the event.
    case duplicate
}

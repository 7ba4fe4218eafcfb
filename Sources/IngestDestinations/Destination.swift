import IngestCore
import IngestOutcome

/// Where photos go: the local archive (the embedded default) or a PhotoShare server.
public protocol Destination: Sendable {
    /// A stable name for the catalog: a file done for one destination is not done for another.
    var identity: String { get }

    /// What kind of place it is: the words a report uses ("stored", "uploaded") follow it.
    var kind: DestinationKind { get }

    /// Whether what it holds may change while a run goes on, other than through the run (other
    /// clients upload to a server): a watch then fetches its hash sets again now and then.
    var holdingsChangeMeanwhile: Bool { get }

    /// Makes the event known to the destination and says where the hashes it already holds for
    /// it come from: fetched now, or read on first need where that is as safe.
    func prepare(_ event: Event) async throws(IngestError) -> HashSource

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

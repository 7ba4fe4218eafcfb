import IngestCore
import IngestOutcome
import Synchronization

/// Watches a run as it goes: the progress line and the per-file report implement this.
/// Called from the run's own task only, one call at a time.
public protocol RunObserver: AnyObject {
    /// A file's work began.
    func started(_ path: String)
    /// A file ended for one event; `report` is that event's, and already counts it. A file's
    /// outcomes come one after another, in the events' order, then ``progressed(_:)``.
    func finished(_ outcome: FileOutcome, event: Event, report: RunReport)
    /// A file ended for every event.
    func progressed(_ progress: RunProgress)
    /// Whether ``finished(_:event:report:)`` is called for files an earlier run finished and that
    /// have not changed since. Without it a nightly re-run only counts them: no outcome is made
    /// for the 100,000 files it passes over.
    var wantsUnchangedOutcomes: Bool { get }
    /// What is known was committed to the catalog (a watch between batches, or gone idle): what
    /// the observer writes in batches is written out too, so that it says what the catalog says.
    func committed()
    /// A second passed in a watch, whether or not a file ended: a status line due is written,
    /// so that an idle watch still says it is alive, and what it says is current.
    func ticked()
}

extension RunObserver {
    public var wantsUnchangedOutcomes: Bool { true }
    public func committed() {}
    public func ticked() {}
}

/// How far a run is, in files: each file counts once, whatever the number of events.
public struct RunProgress: Sendable, Equatable {
    /// Files that ended for every event.
    public var done = 0
    /// Of those, the ones no event needed opened (an earlier run finished them).
    public var unchanged = 0
    /// Entries the walk has found so far, and whether it has finished.
    public var discovered = 0
    public var discoveryDone = false
    /// Bytes read from the files that were read.
    public var bytesRead: Int64 = 0
    /// Uploads sending and queued, when the destination uploads.
    public var uploads: UploadCounts?

    public init() {}
}

/// Set by the first Ctrl-C, or by the run itself when it cannot go on (a refused token, a server
/// gone): discovery stops, the files in flight finish, the catalog commits.
public final class StopRequest: Sendable {
    private let requested = Atomic(false)
    private let byUser = Atomic(false)
    public init() {}

    /// Stops the run; `byUser` for Ctrl-C, as opposed to the run stopping itself.
    public func request(byUser: Bool = true) {
        if byUser { self.byUser.store(true, ordering: .relaxed) }
        self.requested.store(true, ordering: .relaxed)
    }

    public var isRequested: Bool { self.requested.load(ordering: .relaxed) }
    /// Whether the user asked for the stop (Ctrl-C): the run was interrupted, not stopped by itself.
    public var isRequestedByUser: Bool { self.byUser.load(ordering: .relaxed) }
}

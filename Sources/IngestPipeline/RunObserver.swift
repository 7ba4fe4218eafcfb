import Synchronization

/// Watches a run as it goes: the progress line and the per-file report implement this.
/// Called from the run's own task only, one call at a time.
public protocol RunObserver: AnyObject {
    /// A file's work began.
    func started(_ path: String)
    /// A file ended; `report` already counts it. `discovered` is how many files the walk has found so far.
    func finished(_ outcome: FileOutcome, report: RunReport, discovered: Int, discoveryDone: Bool)
}

/// Set by the first Ctrl-C: discovery stops, the files in flight finish, the catalog commits.
public final class StopRequest: Sendable {
    private let requested = Atomic(false)
    public init() {}
    public func request() { self.requested.store(true, ordering: .relaxed) }
    public var isRequested: Bool { self.requested.load(ordering: .relaxed) }
}

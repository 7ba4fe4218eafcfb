import IngestCatalog
import IngestCore

/// What earlier runs left in the catalog for one walk batch: in which events each file is done,
/// and the hash and capture time they learned of it for the files still to do. Looked up once per
/// batch, in at most two queries whatever the number of events.
struct EarlierRuns: Sendable {
    /// By event id, then path.
    private var entries: [String: [String: CatalogEntry]] = [:]
    private var facts: [String: FileFacts] = [:]
    /// The zone this run assumes for times without an offset.
    private let zone: String
    /// `--retry-failed`: files known to be broken are tried again.
    private let retryFailed: Bool

    /// Nothing known: every file is read, for every event.
    init(zone: String) {
        self.zone = zone
        self.retryFailed = true
    }

    init(
        files: [DiscoveredFile], catalog: Catalog, destination: String, events: [Event], zone: String,
        retryFailed: Bool
    ) async throws {
        self.zone = zone
        self.retryFailed = retryFailed
        self.entries = try await catalog.entries(
            for: files.map(\.path), destination: destination, events: events.map(\.id))
        // Facts only for the files some event still needs: a nightly re-run passes over the rest.
        let needed = files.filter { !self.plan($0, events: events).pending.isEmpty }
        self.facts = try await catalog.facts(for: needed.map(\.path))
    }

    /// What each event still needs of `file`, by event index.
    struct Plan {
        /// The events where no earlier run finished the file as it is now (same stamp, same
        /// window, same assumed zone) nor found these bytes broken.
        var pending: [Int] = []
        /// The events where an earlier run found these very bytes broken (none with
        /// `--retry-failed`): the outcome that says so.
        var knownBroken: [Int: FileOutcome] = [:]
    }

    /// One look at the catalog's entries for `file` in every event.
    func plan(_ file: DiscoveredFile, events: [Event]) -> Plan {
        var plan = Plan()
        for (index, event) in events.enumerated() {
            guard let entry = self.entries[event.id]?[file.path] else {
                plan.pending.append(index)
                continue
            }
            if entry.isDone(stamp: file.stamp, window: event.window.description, zone: self.zone) { continue }
            if !self.retryFailed && entry.isKnownBroken(stamp: file.stamp) {
                plan.knownBroken[index] = FileOutcome(
                    knownBroken: file, reason: entry.reason, errorCode: entry.errorCode)
            } else {
                plan.pending.append(index)
            }
        }
        return plan
    }

    /// The file's hash and capture time, when an earlier run learned them from these very bytes
    /// (same stamp) and, for a time read in an assumed zone, in this run's zone.
    func facts(of file: DiscoveredFile) -> FileFacts? {
        guard let facts = self.facts[file.path], facts.stamp == file.stamp else { return nil }
        return facts.capture.source != .exifAssumedZone || facts.capture.assumedZone == self.zone ? facts : nil
    }
}

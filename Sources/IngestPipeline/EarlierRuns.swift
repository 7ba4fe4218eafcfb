import IngestCatalog
import IngestCore
import IngestDating
import IngestDestinations
import IngestDiscovery
import IngestOutcome

/// What earlier runs left in the catalog for one walk batch: in which events each file is done,
/// and the hash and capture time they learned of it for the files still to do. Looked up once per
/// batch, in at most two queries whatever the number of events.
struct EarlierRuns: Sendable {
    /// By position in the batch: what each event still needs of the file there (none for a walk
    /// problem, and none at all when nothing is known).
    private var plans: [Plan] = []
    private let events: Int
    private var facts: [String: KnownFacts] = [:]
    /// The zone this run assumes for times without an offset.
    private let zone: String
    /// This run has zone boundaries: a file whose GPS position went unused is dated again.
    private let readsPositions: Bool
    /// The camera clocks this run corrects: a file dated with another correction is dated again.
    private let corrections: ClockCorrections

    /// Nothing known: every file is read, for every event.
    init(events: Int, zone: String) {
        self.events = events
        self.zone = zone
        self.readsPositions = false
        self.corrections = ClockCorrections()
    }

    init(
        batch: [DiscoveryItem], catalog: Catalog, destination: String, events: [Event], zone: String,
        readsPositions: Bool, retryFailed: Bool, corrections: ClockCorrections = ClockCorrections(),
        undated: UndatedPolicy = .open
    ) async throws {
        self.events = events.count
        self.zone = zone
        self.readsPositions = readsPositions
        self.corrections = corrections
        let files = batch.enumerated().compactMap { position, item in item.file.map { (position: position, file: $0) } }
        let entries = try await catalog.entries(
            for: files.map(\.file.path), destination: destination, events: events.map(\.id))
        let windows = events.map(\.window)
        self.plans = Array(repeating: Plan(), count: batch.count)
        for (index, (position, file)) in files.enumerated() {
            self.plans[position] = Self.plan(
                file, entries: entries, at: index, windows: windows, zone: zone, readsPositions: readsPositions,
                correctsClocks: !corrections.isEmpty, retryFailed: retryFailed, undated: undated)
        }
        // Facts only for the files some event still needs: a nightly re-run passes over the rest.
        let needed = files.filter { !self.plans[$0.position].pending.isEmpty }.map(\.file.path)
        self.facts = try await catalog.facts(for: needed)
        for (position, file) in files where !self.plans[position].again.changed.isEmpty {
            guard let earlier = self.facts[file.path], !file.stamp.isUnchanged(since: earlier.stamp) else { continue }
            self.plans[position].again.earlierHash = earlier.sha256
        }
        // Rows of an older catalog know no ctime: the one seen now is kept for the files that
        // matched, so that an edit in place from now on is seen. Not for a dry run's catalog,
        // which is read only.
        let adopted = files.compactMap { position, file -> (path: String, changedNanoseconds: Int64)? in
            guard let changed = file.stamp.changedNanoseconds, self.plans[position].adoptsChangeTime else { return nil }
            return (file.path, changed)
        }
        if !adopted.isEmpty { try? await catalog.recordChangeTimes(adopted) }
        guard !retryFailed else { return }
        for (position, file) in files {
            guard let known = self.facts[file.path], file.stamp.isUnchanged(since: known.stamp),
                let failure = known.failure
            else {
                continue
            }
            self.plans[position].broken(file, by: failure)
        }
    }

    /// What each event still needs of a file, by event index.
    struct Plan {
        /// The events where no earlier run finished the file as it is now (same stamp, same
        /// window, same assumed zone) nor found these bytes broken.
        var pending: [Int] = []
        /// The events where an earlier run found these very bytes broken (none with
        /// `--retry-failed`): the outcome that says so.
        var knownBroken: [Int: FileOutcome] = [:]
        /// What earlier runs gave the file to the events that need it again, for the notes.
        var again = GivenAgain()
        /// The catalog's row knows no ctime (an older photoingest wrote it) and matched without.
        var adoptsChangeTime = false

        /// Known broken in every event that still needs the file: an earlier run found these very
        /// bytes broken in some event, and they are broken in each.
        mutating func broken(_ file: DiscoveredFile, by failure: IngestError) {
            for event in self.pending { self.broken(file, in: event, reason: failure.message, code: failure.code) }
            self.pending = []
        }

        /// Known broken in the event at `event`, with the earlier failure's reason and code.
        mutating func broken(_ file: DiscoveredFile, in event: Int, reason: String?, code: IngestError.Code?) {
            self.knownBroken[event] = FileOutcome(FileFacts(file), .knownBroken(reason: reason, code: code))
        }
    }

    /// The plan of the file at `position` in the batch.
    func plan(at position: Int) -> Plan {
        position < self.plans.count ? self.plans[position] : Plan(pending: Array(0..<self.events))
    }

    /// One look at the catalog's entries for `file` (at `index` in the paths asked about) in every event.
    private static func plan(
        _ file: DiscoveredFile, entries: CatalogEntries, at index: Int, windows: [EventWindow], zone: String,
        readsPositions: Bool, correctsClocks: Bool, retryFailed: Bool, undated: UndatedPolicy
    ) -> Plan {
        var plan = Plan()
        for (event, window) in windows.enumerated() {
            guard let entry = entries[index, event] else {
                plan.pending.append(event)
                continue
            }
            if entry.stamp.changedNanoseconds == nil && file.stamp.isUnchanged(since: entry.stamp) {
                plan.adoptsChangeTime = true
            }
            // Undated where only a window kept it out: final while undated files stay out of windows.
            if entry.status == .undated && undated != .open {
                plan.pending.append(event)
                continue
            }
            if entry.isDone(
                stamp: file.stamp, window: window, zone: zone, readsPositions: readsPositions,
                correctsClocks: correctsClocks, sidecar: file.sidecar?.fingerprint)
            {
                continue
            }
            if entry.status == .uploaded && !file.stamp.isUnchanged(since: entry.stamp) {
                plan.again.changed.append(event)
            }
            if entry.errorCode == IngestError.Code.missingAtDestination.name {
                plan.again.missing[event] = entry.reason ?? "found missing by verify"
            }
            if !retryFailed && entry.isKnownBroken(stamp: file.stamp) {
                plan.broken(file, in: event, reason: entry.reason, code: entry.errorCode.map(IngestError.Code.init))
            } else {
                plan.pending.append(event)
            }
        }
        return plan
    }

    /// The file's hash and capture time, when an earlier run learned them from these very bytes
    /// (same stamp, and the same sidecar): dated again from what the catalog holds when this run corrects the camera's
    /// clock otherwise (nil where that needs the file), and, for a time read in an assumed zone,
    /// in this run's zone with no GPS position left unread that this run could read.
    func facts(of file: DiscoveredFile) -> KnownFacts? {
        guard var facts = self.facts[file.path], file.stamp.isUnchanged(since: facts.stamp),
            facts.sidecar == file.sidecar?.fingerprint
        else { return nil }
        let correction =
            facts.capture.source.readsCameraClock
            ? self.corrections.seconds(for: facts.camera, path: file.path, wall: facts.capture.cameraClock) : nil
        if correction != facts.capture.clockOffset {
            guard let moved = facts.capture.recorrected(to: correction) else { return nil }
            facts.capture = moved
        }
        let capture = facts.capture
        // A time read in an assumed zone (a camera's without offset, a local time in a name).
        guard capture.assumedZone != nil else { return facts }
        return capture.assumedZone == self.zone && !(capture.positionUnused && self.readsPositions) ? facts : nil
    }
}

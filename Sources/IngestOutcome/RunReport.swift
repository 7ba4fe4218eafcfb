import Foundation
import IngestCore

/// What a run did in one event: counts per status, failures and skips with their reasons,
/// bytes, and per-stage timings. What holds for the whole run is in ``RunSummary``.
public struct RunReport: Sendable {
    public var destination: String
    public var event: Event
    public var dryRun: Bool
    public private(set) var counts: [FileStatus: Int] = [:]
    /// Files that ended with an outcome.
    public private(set) var filesSeen = 0
    /// Of the skipped files, those an earlier run finished and that have not changed since.
    public private(set) var unchanged = 0
    /// Bytes read from the files that were read.
    public private(set) var bytesRead: Int64 = 0
    /// This run's failures, grouped by the head of their reason ("decoding failed"), each group
    /// with its count and a few examples; all of them are in the per-file report.
    public private(set) var failureReasons: [String: ReasonTally] = [:]
    public private(set) var skippedReasons: [String: ReasonTally] = [:]
    /// Files the run stopped before (a deadline, Ctrl-C, a server gone) that the event still
    /// needs: the walk went on to count them, so that what is left is said whole.
    public private(set) var notReached = 0
    /// Files given to the event again, by why: found missing by `verify`, or their path sent
    /// before with other bytes (an edit in place), with examples.
    public private(set) var givenAgain: [String: ReasonTally] = [:]
    /// Why files were left undated in this event, with examples.
    public private(set) var undatedReasons: [String: ReasonTally] = [:]
    /// Of the skipped files, those an earlier run found broken and that have not changed since.
    public private(set) var knownBroken = 0
    /// Files dated by their modification time: no capture time was found in them.
    public private(set) var datedByFileTime = 0
    /// The first ``failureLimit`` photos near the window's edges, and how many there were.
    public private(set) var nearEdge: [FileOutcome] = []
    public private(set) var nearEdgeCount = 0
    public private(set) var timings = StageTimings()

    static let failureLimit = 200
    static let examplesPerReason = 3

    public struct ReasonTally: Sendable {
        public var count = 0
        public var examples: [String] = []

        /// Counts one more; the examples kept are the first few in sorted order, so that the
        /// same files give the same text whatever order they ended in.
        mutating func add(_ example: String) {
            self.count += 1
            guard self.examples.count < RunReport.examplesPerReason || example < self.examples[self.examples.count - 1]
            else { return }
            self.examples.insert(example, at: self.examples.firstIndex { example < $0 } ?? self.examples.count)
            if self.examples.count > RunReport.examplesPerReason { self.examples.removeLast() }
        }
    }

    public init(destination: String, event: Event, dryRun: Bool) {
        self.destination = destination
        self.event = event
        self.dryRun = dryRun
    }

    public mutating func add(_ outcome: FileOutcome, unchanged: Bool = false) {
        self.filesSeen += 1
        self.counts[outcome.status, default: 0] += 1
        if unchanged { self.unchanged += 1 }
        if outcome.timings.seconds[.read] != nil { self.bytesRead += outcome.size ?? 0 }
        self.timings.add(outcome.timings)
        if outcome.nearEdge != nil {
            self.nearEdgeCount += 1
            // The earliest by capture time, in time order, whichever order the files ended in.
            self.nearEdge.append(outcome)
            self.nearEdge.sort {
                ($0.capture?.instant ?? .distantFuture, $0.path) < ($1.capture?.instant ?? .distantFuture, $1.path)
            }
            if self.nearEdge.count > Self.failureLimit { self.nearEdge.removeLast() }
        }
        if outcome.capture?.source == .fileMTime, outcome.status.isPlaced {
            self.datedByFileTime += 1
        }
        switch outcome.status {
        case .failed:
            // Libraries' reasons carry details of each file ("… 17 extraneous bytes"): group by
            // what went wrong, show the details in the examples.
            let reason = outcome.reason ?? "failed"
            let (head, detail) = Self.split(reason)
            let path = PathBytes.printable(outcome.path)
            self.failureReasons[head, default: ReasonTally()].add(detail.isEmpty ? path : "\(path): \(detail)")
        case .uploaded:
            guard let note = outcome.reason else { break }
            let path = PathBytes.printable(outcome.path)
            if note.contains(Verdict.sentBeforeNote) {
                self.givenAgain["sent before with other bytes (the earlier copy stays)", default: ReasonTally()].add(
                    path)
            }
            if note.contains(Verdict.sentAgainNote) {
                self.givenAgain["found missing by verify", default: ReasonTally()].add(path)
            }
        case .skipped where outcome.knownBroken:
            self.knownBroken += 1
        case .skipped:
            self.skippedReasons[outcome.reason ?? "skipped", default: ReasonTally()].add(
                PathBytes.printable(outcome.path))
        case .undated:
            self.undatedReasons[outcome.reason ?? "undated", default: ReasonTally()].add(
                PathBytes.printable(outcome.path))
        default:
            break
        }
    }

    /// Counts a file the run stopped before and that the event still needs.
    package mutating func addNotReached() {
        self.notReached += 1
    }

    /// Counts a file an earlier run finished, unchanged since, as ``add(_:unchanged:)`` counts its
    /// outcome, without the outcome.
    package mutating func addUnchanged(_ path: String) {
        self.filesSeen += 1
        self.counts[.skipped, default: 0] += 1
        self.unchanged += 1
        self.skippedReasons[FileOutcome.unchangedReason, default: ReasonTally()].add(PathBytes.printable(path))
    }

    /// Counts `count` files done earlier and unchanged since, of which `examples` are the first
    /// by path (a settled folder's files, counted without a look at each).
    package mutating func addUnchanged(count: Int, examples: [String]) {
        self.filesSeen += count
        self.counts[.skipped, default: 0] += count
        self.unchanged += count
        var reason = self.skippedReasons[FileOutcome.unchangedReason, default: ReasonTally()]
        for example in examples { reason.add(PathBytes.printable(example)) }
        reason.count += count - examples.count
        self.skippedReasons[FileOutcome.unchangedReason] = reason
    }

    /// A reason's head (up to its first ": ") and the rest.
    static func split(_ reason: String) -> (head: String, detail: String) {
        guard let colon = reason.range(of: ": ") else { return (reason, "") }
        return (String(reason[..<colon.lowerBound]), String(reason[colon.upperBound...]))
    }

    public func count(_ status: FileStatus) -> Int { self.counts[status, default: 0] }

    /// Whether the event is the archive's, whose accepted files are said to be stored.
    public var atArchive: Bool { DestinationKind(identity: self.destination).isArchive }

    /// The counts by status, in the destination's words, as the summary keeps them.
    public var statusCounts: EventSummary.StatusCounts {
        var counts = EventSummary.StatusCounts(atArchive: self.atArchive)
        for status in FileStatus.allCases { counts[status] = self.count(status) }
        return counts
    }

    /// The PhotoShare clients' summary line (see ``EventSummary/StatusCounts/summaryLine(dryRun:)``).
    public var summaryLine: String { self.statusCounts.summaryLine(dryRun: self.dryRun) }
}

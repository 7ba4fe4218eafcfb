import Foundation
import IngestCore

/// What a run did: counts per status, failures and skips with their reasons, bytes, time, and
/// per-stage timings. ``totalsAgree`` checks that every file discovery found ended exactly once.
public struct RunReport: Sendable {
    public var destination: String
    public var event: Event
    public var dryRun: Bool
    public private(set) var counts: [FileStatus: Int] = [:]
    /// Files that ended with an outcome.
    public private(set) var filesSeen = 0
    /// Entries the walk found (files, and those it could not look at): each must end with one outcome.
    public internal(set) var filesDiscovered = 0
    /// Of the skipped files, those an earlier run finished and that have not changed since.
    public private(set) var unchanged = 0
    /// Bytes read from the files that were read.
    public private(set) var bytesRead: Int64 = 0
    /// The first ``failureLimit`` failures; all of them are in the per-file report.
    public private(set) var failures: [FileOutcome] = []
    public private(set) var skippedReasons: [String: SkipTally] = [:]
    /// The first ``failureLimit`` photos near the window's edges, and how many there were.
    public private(set) var nearEdge: [FileOutcome] = []
    public private(set) var nearEdgeCount = 0
    public var hiddenEntries = 0
    public var interrupted = false
    /// A problem with the catalog that did not stop the run but must be reported.
    public var catalogProblem: String?
    /// What stopped the run before its end (a refused token), if anything did.
    public var fatalError: String?
    /// The destination's counters (requests, retries, bytes uploaded).
    public var destinationStatistics: [String: Int] = [:]
    public private(set) var timings = StageTimings()
    public var elapsedSeconds = 0.0

    static let failureLimit = 200
    static let examplesPerReason = 3

    public struct SkipTally: Sendable {
        public var count = 0
        public var examples: [String] = []
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
            if self.nearEdge.count < Self.failureLimit { self.nearEdge.append(outcome) }
        }
        switch outcome.status {
        case .failed where self.failures.count < Self.failureLimit:
            self.failures.append(outcome)
        case .skipped:
            let reason = outcome.reason ?? "skipped"
            var tally = self.skippedReasons[reason, default: SkipTally()]
            tally.count += 1
            if tally.examples.count < Self.examplesPerReason { tally.examples.append(outcome.path) }
            self.skippedReasons[reason] = tally
        default:
            break
        }
    }

    public func count(_ status: FileStatus) -> Int { self.counts[status, default: 0] }

    /// Every file discovery found ended with exactly one outcome; a stopped run leaves the rest
    /// without one, for the next run.
    public var totalsAgree: Bool {
        self.interrupted ? self.filesSeen <= self.filesDiscovered : self.filesSeen == self.filesDiscovered
    }

    /// The PhotoShare clients' summary: only the non-zero counts, in this order.
    public var summaryLine: String {
        var parts: [String] = []
        if self.count(.uploaded) > 0 { parts.append("\(self.count(.uploaded)) Uploaded") }
        if self.count(.duplicate) > 0 { parts.append("\(self.count(.duplicate)) Duplicates") }
        if self.count(.outside) > 0 { parts.append("\(self.count(.outside)) Outside event dates") }
        return parts.isEmpty ? "No photos uploaded" : parts.joined(separator: ", ")
    }

    public var filesPerSecond: Double {
        self.elapsedSeconds > 0 ? Double(self.filesSeen - self.unchanged) / self.elapsedSeconds : 0
    }

    /// The `--json` summary object.
    public var jsonObject: [String: Any] {
        var counts: [String: Int] = [:]
        for status in FileStatus.allCases { counts[status.rawValue] = self.count(status) }
        var stages: [String: Any] = [:]
        for stage in StageTimings.Stage.allCases {
            guard let histogram = self.timings.histogram(stage) else { continue }
            stages[stage.rawValue] = [
                "count": histogram.count,
                "p50Seconds": histogram.percentile(0.5) ?? 0,
                "p95Seconds": histogram.percentile(0.95) ?? 0,
                "totalSeconds": histogram.total,
            ]
        }
        var object: [String: Any] = [
            "destination": self.destination,
            "event": self.event.name,
            "dryRun": self.dryRun,
            "interrupted": self.interrupted,
            "files": self.filesSeen,
            "counts": counts,
            "unchanged": self.unchanged,
            "nearEdge": self.nearEdgeCount,
            "bytes": self.bytesRead,
            "seconds": self.elapsedSeconds,
            "filesPerSecond": self.filesPerSecond,
            "stages": stages,
            "summary": self.summaryLine,
        ]
        if let problem = self.catalogProblem { object["catalogProblem"] = problem }
        if let fatal = self.fatalError { object["stoppedBy"] = fatal }
        if !self.destinationStatistics.isEmpty { object["transfers"] = self.destinationStatistics }
        return object
    }
}

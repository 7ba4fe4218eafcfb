import Foundation
import IngestCore

/// What a run did: what holds for the whole run, said once, and each event's report.
///
/// The walk, the clock, a stop and the destination belong to the run, whatever the number of
/// events; what differs per event (counts, failures by reason, timings) is in ``events``.
public struct RunSummary: Sendable {
    /// Each event's report, in the order of the run's events.
    public var events: [RunReport]
    /// Entries the walk found (files, and those it could not look at): each must end with one
    /// outcome in every event.
    public var filesDiscovered = 0
    /// Files that ended in every event, each counted once; of those, the ones no event needed
    /// opened; and the bytes read.
    public var filesDone = 0
    public var filesUnchanged = 0
    public var bytesRead: Int64 = 0
    /// Hidden files and folders the walk passed over.
    public var hiddenEntries = 0
    /// Entries the exclusion rules left out (never opened), by rule.
    public var excluded: [String: Int] = [:]
    /// Files found with an XMP sidecar beside them.
    public var withSidecars = 0
    /// The folders given that yielded no file at all (see ``Discovery/Tally/filelessRoots``).
    public var filelessRoots: [String] = []
    /// Zip files walked into (their entries are among the files).
    public var zipFiles = 0
    /// Folders a re-run found as an earlier one sealed them, and their files: counted unchanged
    /// without a catalog lookup each.
    public var settledFolders = 0
    public var settledFiles = 0
    /// A Google Takeout's JSONs: the files paired, by rule, and those left unpaired.
    public var takeout = TakeoutCounts()
    /// An iCloud export's CSVs: the files a row dated, and those with none.
    public var icloud = ICloudCounts()
    public var elapsedSeconds = 0.0
    /// Stopped by the user (Ctrl-C).
    public var interrupted = false
    /// Stopped before the end, by the user or by the run itself (a refused token, a server gone):
    /// the files not reached have no outcome yet.
    public var stoppedEarly = false
    /// What stopped the run before its end (a refused token, a server that stopped answering),
    /// if anything did.
    public var fatalError: IngestError?
    /// The `--max-duration` that stopped the run, in seconds, when that is what did.
    public var deadline: Int?
    /// For a run stopped before its end: the files it did not reach that some event still needs,
    /// and those stopped in flight (pending in some event). The next run does both.
    public var notReached = 0
    public var leftInFlight = 0
    /// The first problem with the catalog: it did not stop the run, but the run did not go well.
    public var catalogProblem: IngestError?
    /// The destination's counters (requests, retries, bytes uploaded).
    public var destinationStatistics: [String: Int] = [:]
    /// Each camera body the run saw, with the clock offset its photos suggest.
    public var cameras: [CameraSummary] = []

    public init(events: [RunReport]) {
        self.events = events
    }

    /// Every file the walk found ended with exactly one outcome in `report`'s event; a stopped
    /// run leaves the rest without one, for the next run.
    public func totalsAgree(_ report: RunReport) -> Bool {
        self.stoppedEarly ? report.filesSeen <= self.filesDiscovered : report.filesSeen == self.filesDiscovered
    }

    /// Files per second over the run, counting each file once and not those no event needed opened.
    public var filesPerSecond: Double { self.rate(self.filesDone - self.filesUnchanged) }

    /// What stopped the run, when it was its deadline.
    var deadlineWords: String? {
        self.deadline.map { "the deadline (--max-duration \(RunSummary.duration($0)))" }
    }

    /// Whether some file failed, or the catalog could not record everything.
    public var hasFailures: Bool {
        self.catalogProblem != nil || self.events.contains { $0.count(.failed) > 0 }
    }

    /// `report`'s summary as `--json` writes it and the catalog keeps it, with what holds for the
    /// whole run.
    public func summary(of report: RunReport) -> EventSummary {
        var stages: [String: EventSummary.StageFigures] = [:]
        for stage in StageTimings.Stage.allCases {
            guard let histogram = report.timings.histogram(stage) else { continue }
            stages[stage.rawValue] = EventSummary.StageFigures(
                count: histogram.count, p50Seconds: histogram.percentile(0.5) ?? 0,
                p95Seconds: histogram.percentile(0.95) ?? 0, totalSeconds: histogram.total)
        }
        return EventSummary(
            destination: report.destination, event: report.event.name, dryRun: report.dryRun,
            interrupted: self.interrupted, files: report.filesSeen, counts: report.statusCounts,
            unchanged: report.unchanged,
            nearEdge: report.nearEdgeCount, knownBroken: report.knownBroken, datedByFileTime: report.datedByFileTime,
            bytes: report.bytesRead, seconds: self.elapsedSeconds, filesPerSecond: self.filesPerSecond(of: report),
            stages: stages, summary: report.summaryLine, closingLine: report.closingLine,
            catalogProblem: self.catalogProblem?.message, stoppedBy: self.fatalError?.message ?? self.deadlineWords,
            notReached: self.stoppedEarly ? report.notReached : nil,
            transfers: self.destinationStatistics.isEmpty ? nil : self.destinationStatistics)
    }

    /// Files per second in `report`'s event, not counting those an earlier run finished.
    public func filesPerSecond(of report: RunReport) -> Double { self.rate(report.filesSeen - report.unchanged) }

    /// `files` over the run's elapsed time; 0 before any time has passed.
    private func rate(_ files: Int) -> Double {
        self.elapsedSeconds > 0 ? Double(files) / self.elapsedSeconds : 0
    }
}

import IngestCore
import IngestDiscovery
import IngestOutcome
import IngestPipeline
import IngestReport
import Logging

/// What the user sees while a run goes: one progress line for the whole run, and the report.
///
/// The report has a line per file and event, or one for the file as a whole when it never
/// reached an event (skipped, failed before any). With several events, a file outside every
/// event has one line more that says so.
final class RunDisplay: RunObserver {
    let progress: ProgressLine
    let report: ReportWriter?
    let events: Int
    /// The outcomes of the file now ending, one per event, written once all have come.
    private var current: [(FileOutcome, Event)] = []
    /// With several events, the files that fell outside every event's window.
    private(set) var outsideAll = 0
    /// The run's progress as last reported: files counted once, whatever the number of events.
    private(set) var lastProgress = RunProgress()

    /// Failures as they happen, and a status line every `statsInterval` seconds (0: none).
    let log: Logger
    let statsInterval: Int
    private let clock = ContinuousClock()
    private let begun: ContinuousClock.Instant
    private var lastStats: ContinuousClock.Instant

    /// For `watch`: how long files wait, measured as each ends, and shown with the status lines.
    var latency: WatchLatency?
    /// For `watch`: writes the metrics file with the figures so far (at most every 15 s).
    var metricsSoFar: ((_ reports: [RunReport], _ progress: RunProgress) -> Void)?
    /// Each event's report as last seen, by id, for ``metricsSoFar``.
    private var reports: [String: RunReport] = [:]
    private var lastMetrics: ContinuousClock.Instant?

    /// Every file's outcome per event (by event id), kept for `--html`; nil without it.
    var htmlPhotos: [String: [ReportPhoto]]?

    init(progress: ProgressLine, report: ReportWriter?, events: Int, log: Logger, statsInterval: Int) {
        self.progress = progress
        self.report = report
        self.events = events
        self.log = log
        self.statsInterval = statsInterval
        self.begun = self.clock.now
        self.lastStats = self.begun
    }

    /// Only the per-file report and the HTML page show unchanged files one by one.
    var wantsUnchangedOutcomes: Bool { self.report != nil || self.htmlPhotos != nil }

    func started(_ path: String) {
        self.progress.started(path)
    }

    func finished(_ outcome: FileOutcome, event: Event, report: RunReport) {
        self.latency?.finished(outcome.path)
        if self.metricsSoFar != nil { self.reports[event.id] = report }
        self.current.append((outcome, event))
        self.htmlPhotos?[event.id, default: []].append(ReportPhoto(outcome))
        if outcome.status == .failed && !outcome.knownBroken {
            self.progress.clear()
            self.log.warning(
                "\(PathBytes.printable(outcome.path)): \(outcome.reason ?? "failed")",
                metadata: [
                    "event": "file.failed", "file.path": "\(PathBytes.printable(outcome.path))",
                    "error.code": "\(outcome.errorCode?.name ?? "unknown")", "photoshare.event": "\(event.name)",
                ])
        }
    }

    func committed() {
        self.report?.flush()
    }

    func ticked() {
        self.logStatus(self.lastProgress)
    }

    func progressed(_ progress: RunProgress) {
        self.writeCurrentFile()
        self.lastProgress = progress
        self.progress.update(progress)
        self.logStatus(progress)
        if let metricsSoFar = self.metricsSoFar {
            let now = self.clock.now
            if self.lastMetrics.map({ now - $0 >= .seconds(15) }) ?? true {
                self.lastMetrics = now
                metricsSoFar(self.reports.values.sorted { $0.event.id < $1.event.id }, progress)
            }
        }
    }

    /// Off a terminal nothing else shows that the run is alive: a line every --stats interval.
    private func logStatus(_ progress: RunProgress) {
        guard self.statsInterval > 0 else { return }
        let now = self.clock.now
        guard now - self.lastStats >= .seconds(self.statsInterval) else { return }
        self.lastStats = now
        let elapsed = max((now - self.begun).seconds, 0.001)
        var metadata: Logger.Metadata = [
            "event": "run.stats", "files.done": .stringConvertible(progress.done),
            "files.found": .stringConvertible(progress.discovered),
            "files.unchanged": .stringConvertible(progress.unchanged),
            "bytes.read": .stringConvertible(progress.bytesRead),
            "seconds": .stringConvertible(Int(elapsed)),
        ]
        var line = ProgressLine.render(progress, elapsed: elapsed, current: "", width: 200)
        if let figures = self.latency?.figures {
            // A watch's measure: from a file complete to its outcome (for an upload, the server's answer).
            metadata["files.waiting"] = .stringConvertible(figures.waiting)
            line += "; \(figures.waiting) waiting"
            // Files whose writers went quiet without closing them, cut short: held, not read.
            if let held = self.latency?.held, held > 0 {
                metadata["files.held"] = .stringConvertible(held)
                line += "; \(held) held open and not whole"
            }
            if let p50 = figures.p50, let p95 = figures.p95 {
                metadata["latency.p50.seconds"] = .string(String(format: "%.3f", p50.seconds))
                metadata["latency.p95.seconds"] = .string(String(format: "%.3f", p95.seconds))
                line += String(format: ", complete to done p50 %.2f s, p95 %.2f s", p50.seconds, p95.seconds)
            }
        }
        self.log.info("\(line)", metadata: metadata)
    }
}

extension RunDisplay {
    /// The report's lines for the file whose outcomes just came.
    private func writeCurrentFile() {
        defer { self.current.removeAll(keepingCapacity: true) }
        let outsideAll = self.events > 1 && !self.current.isEmpty && self.current.allSatisfy { $0.0.status == .outside }
        if outsideAll { self.outsideAll += 1 }
        guard let report = self.report, let (first, _) = self.current.first else { return }
        // Skipped (an earlier run's work included), or failed before it could be dated: the same
        // for every event, said once.
        let beforeAnyEvent = first.status == .skipped || (first.status == .failed && first.capture == nil)
        if beforeAnyEvent && self.current.allSatisfy({ $0.0.status == first.status && $0.0.reason == first.reason }) {
            report.write(first, event: nil)
            return
        }
        for (outcome, event) in self.current { report.write(outcome, event: event) }
        if outsideAll {
            // Outside each by its own distance: the line for them all says none.
            var outside = first
            outside.nearEdge = nil
            report.write(outside, event: nil)
        }
    }
}

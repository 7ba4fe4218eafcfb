import Foundation
import IngestArchive
import IngestCatalog
import IngestCore
import IngestDiscovery
import IngestHashing
import IngestImaging
import IngestOutcome
import IngestPipeline
import IngestReport
import IngestTransport
import IngestZones
import Logging

extension IngestRun {
    static func describe(_ window: EventWindow, in zone: TimeZone? = nil) -> String {
        let text =
            switch (window.start, window.end) {
            case (nil, nil): "any capture time"
            case (let start?, nil): "taken from \(RFC3339.format(start))"
            case (nil, let end?): "taken until \(RFC3339.format(end))"
            case (let start?, let end?): "taken \(RFC3339.format(start)) to \(RFC3339.format(end))"
            }
        guard let zone, let local = window.wallClocks(in: zone) else { return text }
        return text + " (\(local))"
    }

    /// The run's log: swift-log's text lines or JSON lines on standard error, at --log-level.
    func makeLog() -> Logger {
        var log =
            self.settings.logFormat == .json
            ? Logger(label: "photoingest", factory: JSONLogHandler.init)
            : Logger(label: "photoingest", factory: { StreamLogHandler.standardError(label: $0) })
        // --quiet: only what went wrong.
        log.logLevel = self.settings.quiet ? max(self.settings.logLevel, .warning) : self.settings.logLevel
        return log
    }

    /// The end-of-run text and the --json document (one line; a watch prints one per run, the
    /// runs it ended to start again saying why). Returns whether some event's outcomes do not
    /// add up to the files found (a bug, said as such).
    func summarize(
        _ run: RunSummary, display: RunDisplay, zone: TimeZone, console: Console, restartingFor: String? = nil
    ) -> Bool {
        var lostOutcomes = false
        for report in run.events where !run.totalsAgree(report) {
            // A bug, never the user's input: say it, and fail the run rather than call it complete.
            console.status(
                "photoingest: error: \(run.filesDiscovered) files were found but \(report.filesSeen) ended with an "
                    + "outcome for event \(report.event.name); please report this bug", always: true)
            lostOutcomes = true
        }
        console.summary(run.text(outsideAllEvents: display.outsideAll, perFileReport: self.settings.report != nil))
        let shard = self.settings.run.shard.map {
            ShardCatalogs(shard: $0, catalog: self.settings.catalog)
        }
        if let shard { console.summary(shard.line) }
        if self.settings.quiet {
            // --quiet silences the summary, never the reason the exit will not be 0.
            if let fatal = run.fatalError { console.status("photoingest: stopped: \(fatal.message)", always: true) }
            if let problem = run.catalogProblem {
                console.status("photoingest: catalog: \(problem.message)", always: true)
            }
        }
        if self.settings.json {
            var summary = JSONSummary(run, outsideAllEvents: display.outsideAll, timeZone: zone.name)
            summary.shard = shard
            summary.restartingFor = restartingFor
            console.output(summary.jsonText)
        }
        return lostOutcomes
    }

    /// The exit status the help promises.
    static func exitStatus(_ run: RunSummary, lostOutcomes: Bool, watchStopped: Bool = false) -> Int32 {
        // A refused token or a server gone stops the run: said apart from failed files. Ctrl-C
        // wins over the failures it caused.
        if let fatal = run.fatalError { return ExitStatus.of(fatal) }
        if run.interrupted { return ExitStatus.interrupted }
        if lostOutcomes { return ExitStatus.someFailed }
        if run.deadline != nil { return ExitStatus.deadline }
        // A watch ends only when stopped: its failed files are in the summary, the report and the
        // metrics, and `systemctl stop` must not leave the unit failed for a broken photo.
        if run.hasFailures && !watchStopped { return ExitStatus.someFailed }
        return 0
    }

    /// A watch's closing line: how long the files that arrived waited, from complete to done.
    static func waitLine(_ latency: WatchLatency) -> String {
        let figures = latency.figures
        guard let p50 = figures.p50, let p95 = figures.p95 else { return "Watched: no file arrived." }
        return "Watched: \(figures.measured) file\(figures.measured == 1 ? "" : "s") arrived; "
            + String(format: "from complete to done p50 %.2f s, p95 %.2f s", p50.seconds, p95.seconds)
            + (figures.measured > 1024 ? " (the last 1,024)" : "")
    }

    /// `--metrics-file`, at the end of the run, whether it went well or not; for a watch also
    /// while it goes (`exitStatus` nil), with its waits and the uploads in flight.
    func writeMetrics(
        _ reports: [RunReport], bytesRead: Int64, started: Date, exitStatus: Int32?, log: Logger,
        latency: WatchLatency? = nil, uploads: UploadCounts? = nil
    ) {
        guard let path = self.settings.metricsFile, !self.settings.run.dryRun else { return }
        let metrics = RunMetrics()
        metrics.record(
            reports: reports, bytesRead: bytesRead, seconds: Date().timeIntervalSince(started), exitStatus: exitStatus,
            now: Date(), previous: try? String(contentsOfFile: path, encoding: .utf8))
        if let latency { metrics.record(latency, uploads: uploads) }
        do {
            try metrics.write(to: path)
        } catch {
            log.error("\(error.message)", metadata: ["event": "metrics.failed"])
        }
    }

    /// `--html`: a dry run's page from its outcomes as they went by, any other run's from the
    /// catalog. The catalog also knows what the files this run found unchanged hold (their
    /// outcome, time and hash), so that a re-run's page shows the event, not a wall of "unchanged".
    func writeHTML(
        _ path: String, reports: [RunReport], photos: [String: [ReportPhoto]]?, catalog: Catalog?,
        destination: String, started: Date, cameraNotes: [String] = []
    ) async throws {
        if !self.settings.run.dryRun, let catalog,
            case let report = try await ImportReport.read(
                catalog, at: self.settings.catalog, nearEdgeMargin: self.settings.run.nearEdgeMargin,
                otherOffsets: self.settings.timezone == nil ? [] : nil),
            report.summary.parts.first?.run != nil
        {
            var page = report.page
            page.zone = self.zone()
            page.cameraNotes = cameraNotes
            try await HTMLReportFile.write(page, to: path, jobs: self.settings.jobs)
            return
        }
        var fromRun = ReportPage(
            title: "photoingest run, " + CatalogReport.title(started), destination: destination,
            dryRun: self.settings.run.dryRun,
            events: reports.map {
                ReportEvent(
                    name: $0.event.name, window: $0.event.window, summaryLine: $0.closingLine,
                    photos: photos?[$0.event.id] ?? [])
            })
        fromRun.zone = self.zone()
        fromRun.cameraNotes = cameraNotes
        try await HTMLReportFile.write(fromRun, to: path, jobs: self.settings.jobs)
    }
}

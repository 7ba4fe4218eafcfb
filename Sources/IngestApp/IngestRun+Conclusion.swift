import Foundation
import IngestCatalog
import IngestDiscovery
import IngestOutcome
import IngestPipeline
import Logging

extension IngestRun {
    /// What watches the run: the progress line, the per-file report, the log's lines, and for a
    /// watch its waits and the metrics file rewritten as it goes.
    func display(
        progress: ProgressLine, reportWriter: ReportWriter?, events: Int, latency: WatchLatency, started: Date,
        log: Logger
    ) -> RunDisplay {
        let display = RunDisplay(
            progress: progress, report: reportWriter, events: events, log: log, statsInterval: self.settings.stats)
        if self.watching {
            display.latency = latency
            // A watch lives for days: its metrics file says how it goes, not only how it ended.
            display.metricsSoFar = { reports, progress in
                self.writeMetrics(
                    reports, bytesRead: progress.bytesRead, started: started, exitStatus: nil, log: log,
                    latency: latency, uploads: progress.uploads)
            }
        }
        // A dry run records nothing: its page is made of the outcomes as they go by.
        if self.settings.html != nil && self.settings.run.dryRun { display.htmlPhotos = [:] }
        return display
    }

    /// After the run: the folders that yielded nothing, the summary, the exit status, the page,
    /// the log's closing lines and the metrics; for a watch that ended to start again, why.
    func conclude(
        _ run: RunSummary, signals: RunSignals, display: RunDisplay, catalog: Catalog?, target: RunTarget,
        dating: RunDating, started: Date, console: Console, log: Logger
    ) async -> (status: Int32, restart: WatchRestart.Reason?) {
        var run = run
        let emptySources = await self.emptySources(run.filelessRoots, catalog: catalog, console: console)
        let restarting = signals.stop.isRequestedByUser ? nil : signals.restart.current
        if restarting != nil { (run.interrupted, run.stoppedEarly) = (false, false) }
        let watchStopped = self.watching && run.interrupted
        if watchStopped {
            // Ctrl-C and SIGTERM are how a watch ends: the files that arrived are done.
            (run.interrupted, run.stoppedEarly) = (false, false)
        }
        let lostOutcomes = self.summarize(
            run, display: display, zone: dating.zone, console: console, restartingFor: restarting?.words)
        if self.watching, let latency = display.latency { console.summary(Self.waitLine(latency)) }
        var status = Self.exitStatus(run, lostOutcomes: lostOutcomes, watchStopped: watchStopped)
        if status == ExitStatus.success && !emptySources.isEmpty && !self.settings.allowEmpty {
            status = ExitStatus.emptySource
        }
        status = await self.finish(
            run, status: status, display: display, catalog: catalog, destination: target.destination.identity,
            started: started, console: console, log: log)
        return (status, restarting)
    }

    /// After the run: the HTML page, the log's closing lines and the metrics. Returns the exit
    /// status, raised when the page could not be written.
    func finish(
        _ run: RunSummary, status: Int32, display: RunDisplay, catalog: Catalog?, destination: String, started: Date,
        console: Console, log: Logger
    ) async -> Int32 {
        var status = status
        if let html = self.settings.html {
            do {
                try await self.writeHTML(
                    html, reports: run.events, photos: display.htmlPhotos, catalog: catalog, destination: destination,
                    started: started, cameraNotes: run.cameraLines)
                console.status("HTML report: \(html)")
            } catch {
                console.status("photoingest: error: \(error)", always: true)
                log.error("\(error)", metadata: ["event": "report.failed"])
                status = max(status, 1)
            }
        }
        for report in run.events {
            log.notice(
                "\(report.event.name): \(report.closingLine)",
                metadata: [
                    "event": "run.finished", "photoshare.event": "\(report.event.name)",
                    "exit.status": .stringConvertible(Int(status)),
                    "files.seen": .stringConvertible(report.filesSeen),
                    "files.failed": .stringConvertible(report.count(.failed)),
                ])
        }
        self.writeMetrics(
            run.events, bytesRead: run.bytesRead, started: started, exitStatus: status, log: log,
            latency: display.latency, uploads: display.lastProgress.uploads)
        return status
    }
}

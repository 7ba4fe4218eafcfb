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

/// One `photoingest run`, once its settings are known: checks them, then ingests.
public struct IngestRun {
    let settings: Settings
    /// `photoingest watch`: after the walk, the folders are followed until Ctrl-C or SIGTERM.
    let watching: Bool
    /// For a watch: the settings read again (the command line, the environment, the config file),
    /// on SIGHUP.
    let reload: (@Sendable () async throws -> Settings)?

    public init(settings: Settings, watching: Bool = false, reload: (@Sendable () async throws -> Settings)? = nil) {
        var settings = settings
        if watching && settings.shown.first(where: { $0.key == "unreachable-timeout" })?.source == "default" {
            // A watch lives for days: a server that goes away is waited for (probed with back-off)
            // unless the user gave a limit. Before it has answered once, a wrong address still fails fast.
            settings.connection.unreachableTimeout = Self.watchUnreachableTimeout
        }
        self.settings = settings
        self.watching = watching
        self.reload = reload
    }

    /// How long a watch waits for a server that answers nothing, unless told: a week.
    static let watchUnreachableTimeout = 7 * 24 * 3_600
    /// Checks the settings, ingests, and returns the exit status (0 when every file ended well).
    ///
    /// A run that could not start or go on says why once, as a log line with `--log-format json`
    /// and as `photoingest: error: …` otherwise, and returns ``ExitStatus/of(_:)`` of its error.
    ///
    /// - Throws: ``UsageError`` for settings that cannot be used.
    public func run() async throws -> Int32 {
        Interrupts.ignoreBrokenPipes()
        let started = Date()
        let log = self.makeLog()
        do {
            try self.validate()
        } catch {
            self.writeMetrics([], bytesRead: 0, started: started, exitStatus: ExitStatus.usage, log: log)
            throw error
        }
        do {
            return try await self.ingestUntilTheEnd(log: log, started: started)
        } catch let error as IngestError {
            // It could not start (or go on): the metrics say so, so that monitoring sees it.
            self.writeMetrics(
                [], bytesRead: 0, started: started, exitStatus: ExitStatus.of(error), log: log)
            // Said once: standard error carries either JSON lines or text, never both.
            if self.settings.logFormat == .json {
                log.error("\(error.message)", metadata: ["event": "run.failed", "error.code": "\(error.code)"])
            } else {
                FileHandle.standardError.write(Data("photoingest: error: \(error.message)\n".utf8))
            }
            return ExitStatus.of(error)
        }
    }

    /// One run; for a watch, also why it ended to start again (nil: it has ended for good).
    /// `latency` is the watch's, kept across its runs.
    ///
    /// In order: what the times mean (the zone, the zone map, camera clocks), the catalog and its
    /// lock, the destination and its events, the signals that stop it, the pipeline's
    /// configuration, the run itself, and what is said and written after it.
    func ingest(
        log: Logger, started: Date, latency: WatchLatency = WatchLatency()
    ) async throws -> (status: Int32, restart: WatchRestart.Reason?) {
        let console = self.console(log: log)
        let dating = try self.dating(console: console)
        let (catalog, catalogLock) = try await self.openCatalog(console: console)
        let limits = Limits(
            jobs: self.settings.jobs,
            uploads: self.settings.connection.serverURL == nil ? 0 : self.settings.connection.uploads)
        let context = StageContext(logger: log, limits: limits)
        defer { context.shutdown() }
        let target = try await self.target(context: context, console: console)
        let reportWriter = try self.settings.report.map { path throws(IngestError) in
            try ReportWriter(
                path: path, atArchive: target.destination.kind.isArchive, onReaderGone: Interrupts.outputReaderGone)
        }
        defer { reportWriter?.close() }
        let signals = self.signals(target: target, started: started)
        defer { signals.deadline?.cancel() }
        self.sayHowBoundsRead(in: dating.zone, console: console)
        Self.announce(target.events, zone: dating.zone, console: console)
        var configuration = try self.configuration(
            dating: dating, target: target, limits: limits, signals: signals, console: console)
        // Made once the shard plan is drawn: its rate and time left count from here.
        let progress = ProgressLine(
            quiet: self.settings.quiet, heading: target.events.count > 1 ? "\(target.events.count) events" : nil)
        if self.watching {
            configuration.watch = self.watchFeed(
                target: target, signals: signals, latency: latency, progress: progress, console: console)
        }
        let display = self.display(
            progress: progress, reportWriter: reportWriter, events: target.events.count, latency: latency,
            started: started, log: log)
        var run = try await Pipeline(
            configuration: configuration, destination: target.destination, catalog: catalog, context: context
        ).run(observer: display, stop: signals.stop)
        signals.deadline?.cancel()
        if await signals.deadline?.value == true { run.deadline = self.settings.maxDuration }
        progress.clear()
        defer { withExtendedLifetime((catalogLock, target.lock)) {} }
        return await self.conclude(
            run, signals: signals, display: display, catalog: catalog, target: target, dating: dating, started: started,
            console: console, log: log)
    }
}

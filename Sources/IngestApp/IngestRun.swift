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
    func ingest(
        log: Logger, started: Date, latency: WatchLatency = WatchLatency()
    ) async throws -> (status: Int32, restart: WatchRestart.Reason?) {
        let zone = try self.zone()
        let catalogPath = Discovery.absolute(self.settings.catalog)
        let console = Console(
            quiet: self.settings.quiet, stdoutTaken: self.settings.json || self.settings.report == "-",
            log: self.settings.logFormat == .json ? log : nil)
        if self.settings.timezone == nil, let warning = Defaults.zoneVariableWarning() {
            console.status("warning: " + warning, always: true)
        }
        for warning in self.settings.warnings { console.status("warning: " + warning, always: true) }
        if self.watching, let warning = self.settings.connection.fixedTokenWarning(now: Date()) {
            console.status("warning: " + warning, always: true)
        }
        let zones = try self.zoneBoundaries(console: console)
        self.announce(zone, zones: zones, console: console)
        let clocks = try self.clockCorrections(zone: zone, zones: zones, console: console)
        // A dry run writes nothing, so it creates no catalog; an existing one still says what is done.
        let catalog = self.settings.dryRun ? try Catalog(readingAt: catalogPath) : try Catalog(path: catalogPath)
        // One run at a time per catalog: a second one would redo the same work and cross its counts.
        let catalogLock =
            self.settings.dryRun
            ? nil
            : try await self.lock(
                RunLock.path(guarding: catalogPath), what: "the catalog \(catalogPath)", console: console)

        let limits = Limits(
            jobs: self.settings.jobs,
            uploads: self.settings.connection.serverURL == nil ? 0 : self.settings.connection.uploads)
        let context = StageContext(logger: log, limits: limits)
        defer { context.shutdown() }

        let target = try await self.target(context: context, console: console)
        let atArchive = target.destination.kind.isArchive
        let reportWriter = try self.settings.report.map { path throws(IngestError) in
            try ReportWriter(path: path, atArchive: atArchive, onReaderGone: Interrupts.outputReaderGone)
        }
        defer { reportWriter?.close() }

        let stop = StopRequest()
        let restart = WatchRestart()
        // SIGHUP, for a watch: the files in flight finish, then it starts again with the settings read anew.
        var hangUp: (@Sendable () -> Void)?
        if self.watching {
            hangUp = { @Sendable in
                restart.request(.reload)
                stop.request(byUser: false)
            }
        }
        Interrupts.install(stop, onStop: target.finishInFlight, onHangUp: hangUp)
        let deadline = self.deadline(stop, started: started)
        defer { deadline?.cancel() }
        let events = target.events
        self.sayHowBoundsRead(in: zone, console: console)
        Self.announce(events, zone: zone, console: console)
        // One pass over the files for every event: each file is read, hashed and dated once.
        var configuration = self.configuration(
            events: events, limits: limits, zone: zone, zones: zones,
            excluded: Self.catalogFiles(catalogPath) + target.excludedPaths, console: console)
        configuration.clockCorrections = clocks
        if let path = self.settings.shardPlan, let count = configuration.shard?.count {
            let discovery = configuration.discovery
            let (plan, drawn) = try ShardPlanFile(path: path).plan(count: count) {
                console.status("Drawing the shard plan: every shard's files looked at once…")
                let sizes = discovery.unitSizes(shouldStop: { stop.isRequested })
                return stop.isRequested ? nil : sizes
            }
            configuration.shard?.placed = plan.placed
            console.status(ShardPlanFile.line(plan, path: path, drawn: drawn))
        }
        let progress = ProgressLine(
            quiet: self.settings.quiet, heading: events.count > 1 ? "\(events.count) events" : nil)
        if self.watching {
            var watch = WatchFeed(settle: .seconds(self.settings.settle), latency: latency) { line in
                // A notice comes while files are in flight: it takes the progress line's place.
                progress.printing {
                    console.status(line, always: line.hasPrefix("warning: ") || line.hasPrefix("error: "))
                }
            }
            watch.refreshInterval = .seconds(self.settings.refresh)
            watch.polling = self.settings.poll ? .everywhere : self.settings.noPoll ? .never : .whereBlind
            watch.pollInterval = .seconds(self.settings.pollInterval)
            if let list = target.listEvents {
                watch.refreshEvents = { @Sendable [events] in
                    // Events are the run's shape (its reports, its catalog runs): a change starts it again.
                    guard let listed = try? await list(), let change = WatchRestart.change(from: events, to: listed)
                    else { return }
                    restart.request(.eventsChanged(change))
                    stop.request(byUser: false)
                }
            }
            configuration.watch = watch
        }
        let pipeline = Pipeline(
            configuration: configuration, destination: target.destination, catalog: catalog, context: context)
        let display = RunDisplay(
            progress: progress, report: reportWriter, events: events.count, log: log,
            statsInterval: self.settings.stats)
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
        if self.settings.html != nil && self.settings.dryRun { display.htmlPhotos = [:] }
        var run = try await pipeline.run(observer: display, stop: stop)
        deadline?.cancel()
        if await deadline?.value == true { run.deadline = self.settings.maxDuration }
        progress.clear()
        let emptySources = await self.emptySources(run.filelessRoots, catalog: catalog, console: console)
        let restarting = stop.isRequestedByUser ? nil : restart.current
        if restarting != nil { (run.interrupted, run.stoppedEarly) = (false, false) }
        let watchStopped = self.watching && run.interrupted
        if watchStopped {
            // Ctrl-C and SIGTERM are how a watch ends: the files that arrived are done.
            (run.interrupted, run.stoppedEarly) = (false, false)
        }
        let lostOutcomes = self.summarize(
            run, display: display, zone: zone, console: console, restartingFor: restarting?.words)
        if self.watching { console.summary(Self.waitLine(latency)) }
        withExtendedLifetime((catalogLock, target.lock)) {}
        var status = Self.exitStatus(run, lostOutcomes: lostOutcomes, watchStopped: watchStopped)
        if status == ExitStatus.success && !emptySources.isEmpty && !self.settings.allowEmpty {
            status = ExitStatus.emptySource
        }
        status = await self.finish(
            run, status: status, display: display,
            catalog: catalog,
            destination: target.destination.identity, started: started, console: console, log: log)
        return (status, restarting)
    }

    /// The pipeline's configuration, from the settings.
    func configuration(
        events: [Event], limits: Limits, zone: TimeZone, zones: ZoneBoundaries?, excluded: [String], console: Console
    ) -> RunConfiguration {
        var configuration = RunConfiguration(
            paths: self.distinctPaths(console: console), events: events, includeHidden: self.settings.includeHidden,
            dryRun: self.settings.dryRun, limits: limits,
            timeZone: zone, zones: zones,
            thumbnailer: Thumbnailer(
                maxPixels: self.settings.maxPixels,
                jpegShrink: self.settings.fastThumbnails ? .toTheTarget : .twiceTheTarget),
            excludedPaths: excluded,
            nearEdgeMargin: TimeInterval(self.settings.nearEdge * 60), shard: self.settings.shard.flatMap(Shard.init),
            retryFailed: self.settings.retryFailed)
        configuration.zoneIsGuessed = self.settings.timezone == nil
        configuration.exclusions = ExclusionRules(
            excludes: self.settings.exclude, includes: self.settings.include,
            useDefaults: !self.settings.noDefaultExcludes)
        configuration.readsNameDates = !self.settings.noNameDates
        configuration.includeTrashed = self.settings.includeTrashed
        configuration.undated = self.settings.undated
        return configuration
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

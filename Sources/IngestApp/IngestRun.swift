import Foundation
import IngestArchive
import IngestCatalog
import IngestCore
import IngestHashing
import IngestImaging
import IngestPipeline
import IngestReport
import IngestTransport
import IngestZones
import Logging

/// One `photoingest run`, once its settings are known: checks them, then ingests.
public struct IngestRun {
    let settings: Settings

    public init(settings: Settings) {
        self.settings = settings
    }
    /// Checks the settings, ingests, and returns the exit status (0 when every file ended well).
    ///
    /// - Throws: ``UsageError`` for settings that cannot be used, ``IngestError`` when the run
    ///   could not start or go on (see ``ExitStatus/of(_:)``).
    public func run() async throws -> Int32 {
        let started = Date()
        let log = self.makeLog()
        do {
            try self.validate()
        } catch {
            self.writeMetrics([], bytesRead: 0, started: started, exitStatus: ExitStatus.usage, log: log)
            throw error
        }
        do {
            return try await self.ingest(log: log, started: started)
        } catch let error as IngestError {
            // It could not start (or go on): the metrics say so, so that monitoring sees it.
            self.writeMetrics(
                [], bytesRead: 0, started: started, exitStatus: ExitStatus.of(error), log: log)
            log.error("\(error.message)", metadata: ["event": "run.failed", "error.code": "\(error.code)"])
            throw error
        }
    }

    func ingest(log: Logger, started: Date) async throws -> Int32 {
        let zone = try self.zone()
        let catalogPath = Discovery.absolute(self.settings.catalog)
        let console = Console(
            quiet: self.settings.quiet, stdoutTaken: self.settings.json || self.settings.report == "-",
            log: self.settings.logFormat == .json ? log : nil)
        if self.settings.timezone == nil, let warning = Defaults.zoneVariableWarning() {
            console.status("warning: " + warning, always: true)
        }
        for warning in self.settings.warnings { console.status("warning: " + warning, always: true) }
        let zones = try self.zoneBoundaries(console: console)
        self.announce(zone, zones: zones, console: console)
        // A dry run writes nothing, so it creates no catalog; an existing one still says what is done.
        let catalog = self.settings.dryRun ? try Catalog(readingAt: catalogPath) : try Catalog(path: catalogPath)
        // One run at a time per catalog: a second one would redo the same work and cross its counts.
        let catalogLock =
            self.settings.dryRun
            ? nil : try await self.lock(catalogPath + ".lock", what: "the catalog \(catalogPath)", console: console)

        let limits = Limits(
            jobs: self.settings.jobs,
            uploads: self.settings.connection.serverURL == nil ? 0 : self.settings.connection.uploads)
        let context = StageContext(logger: log, limits: limits)
        defer { context.shutdown() }

        let target = try await self.target(context: context, console: console)
        let reportWriter = try self.settings.report.map { path throws(IngestError) in try ReportWriter(path: path) }
        defer { reportWriter?.close() }

        let stop = StopRequest()
        Interrupts.install(stop, onStop: target.finishInFlight)
        let events = target.events
        Self.announce(events, console: console)
        // One pass over the files for every event: each file is read, hashed and dated once.
        let configuration = self.configuration(
            events: events, limits: limits, zone: zone, zones: zones,
            excluded: [(catalogPath as NSString).deletingLastPathComponent] + target.excludedPaths, console: console)
        let pipeline = Pipeline(
            configuration: configuration, destination: target.destination, catalog: catalog, context: context)
        let progress = ProgressLine(
            quiet: self.settings.quiet, heading: events.count > 1 ? "\(events.count) events" : nil)
        let display = RunDisplay(
            progress: progress, report: reportWriter, events: events.count, log: log,
            statsInterval: self.settings.stats)
        // A dry run records nothing: its page is made of the outcomes as they go by.
        if self.settings.html != nil && self.settings.dryRun { display.htmlPhotos = [:] }
        let run = try await pipeline.run(observer: display, stop: stop)
        progress.clear()
        let lostOutcomes = self.summarize(run, display: display, zone: zone, console: console)
        withExtendedLifetime((catalogLock, target.lock)) {}
        return await self.finish(
            run, status: Self.exitStatus(run, lostOutcomes: lostOutcomes), display: display, catalog: catalog,
            destination: target.destination.identity, started: started, console: console, log: log)
    }

    /// Names the run's events and their windows, before the first file.
    static func announce(_ events: [Event], console: Console) {
        for (index, event) in events.enumerated() {
            let heading =
                events.count > 1
                ? "Event \(index + 1) of \(events.count): \(event.name), " : "Event \"\(event.name)\", "
            console.status(heading + Self.describe(event.window))
        }
    }

    /// Says where times without an offset are read: the zone at a photo's GPS position when
    /// there are zone boundaries, else `zone`.
    func announce(_ zone: TimeZone, zones: ZoneBoundaries?, console: Console) {
        console.status(
            "Time zone for EXIF times without an offset: "
                + (zones.map { "the zone at the GPS position (\($0.path), data \($0.dataVersion)), else " } ?? "")
                + zone.name
                + (self.settings.timezone == nil ? " (this machine's; --timezone to change)" : ""))
        if zones == nil {
            console.status(
                "GPS positions unused: no time-zone boundaries in "
                    + ZoneBoundaries.standardPaths().joined(separator: " or ")
                    + " (scripts/zone-data makes them, or give --zone-data)")
        }
    }

    /// The pipeline's configuration, from the settings.
    func configuration(
        events: [Event], limits: Limits, zone: TimeZone, zones: ZoneBoundaries?, excluded: [String], console: Console
    ) -> RunConfiguration {
        RunConfiguration(
            paths: self.distinctPaths(console: console), events: events, includeHidden: self.settings.includeHidden,
            dryRun: self.settings.dryRun, limits: limits,
            timeZone: zone, zones: zones,
            thumbnailer: Thumbnailer(
                maxPixels: self.settings.maxPixels,
                jpegShrink: self.settings.fastThumbnails ? .toTheTarget : .twiceTheTarget),
            excludedPaths: excluded,
            nearEdgeMargin: TimeInterval(self.settings.nearEdge * 60), shard: self.settings.shard.flatMap(Shard.init),
            retryFailed: self.settings.retryFailed)
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
                    started: started)
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
            run.events, bytesRead: run.bytesRead, started: started, exitStatus: status, log: log)
        return status
    }
}

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

    func validate() throws {
        if self.settings.paths.isEmpty { throw UsageError("Give at least one file or folder to ingest.") }
        for path in self.settings.paths where !FileManager.default.fileExists(atPath: path) {
            throw UsageError("'\(path)': no such file or folder to ingest.")
        }
        if let html = self.settings.html, let problem = HTMLReportFile.problem(writing: html) {
            throw UsageError("--html '\(html)': \(problem)")
        }
        _ = try self.window()
        _ = try self.zone()
        try self.settings.connection.validateServer()
        if self.settings.connection.serverURL == nil && self.settings.event.count > 1 {
            throw UsageError("The archive takes one --event name per run.")
        }
        if self.settings.eventsFile != nil
            && (!self.settings.event.isEmpty || self.settings.from != nil || self.settings.until != nil)
        {
            throw UsageError("--events names every event with its window: drop --event, --from and --until.")
        }
        if self.settings.connection.serverURL != nil && self.settings.eventsFile != nil {
            throw UsageError("With a server, the events come from the server: drop --events (--event picks some).")
        }
        if let file = self.settings.eventsFile { _ = try EventsFile.events(at: file) }
        if self.settings.connection.serverURL != nil && (self.settings.from != nil || self.settings.until != nil) {
            throw UsageError("With a server, the events' windows come from the server: drop --from and --until.")
        }
        if self.settings.report == "-" && self.settings.json {
            throw UsageError("--report - and --json both write to standard output; send the report to a file.")
        }
    }

    func window() throws -> EventWindow {
        func parse(_ text: String?, _ option: String, dayEnd: Bool) throws -> Date? {
            guard let text else { return nil }
            guard let date = RFC3339.windowBound(text, isEnd: dayEnd) else {
                throw UsageError(
                    "\(option) '\(text)' is not an RFC 3339 time or a date, e.g. 2025-09-27T21:00:00Z, 2025-09-27T14:00:00-07:00 or 2025-09-27."
                )
            }
            return date
        }
        let window = EventWindow(
            start: try parse(self.settings.from, "--from", dayEnd: false),
            end: try parse(self.settings.until, "--until", dayEnd: true))
        if let start = window.start, let end = window.end, start > end {
            throw UsageError("--from is after --until: the window would hold no photo.")
        }
        return window
    }

    func zone() throws -> TimeZone {
        try Defaults.zone(named: self.settings.timezone)
    }

    /// The zone boundaries: the file named by --zone-data (an error when unusable), else the first
    /// standard place that has one (a warning when unusable). Without any, positions date nothing.
    func zoneBoundaries(console: Console) throws -> ZoneBoundaries? {
        if let path = self.settings.zoneData {
            do {
                return try ZoneBoundaries(path: Discovery.absolute(path))
            } catch {
                throw UsageError("--zone-data: \(error.message)")
            }
        }
        for path in ZoneBoundaries.standardPaths() where FileManager.default.fileExists(atPath: path) {
            do {
                return try ZoneBoundaries(path: path)
            } catch {
                console.status("warning: \(error.message); it is passed over", always: true)
            }
        }
        return nil
    }

    static func describe(_ window: EventWindow) -> String {
        switch (window.start, window.end) {
        case (nil, nil): "any capture time"
        case (let start?, nil): "taken from \(RFC3339.format(start))"
        case (nil, let end?): "taken until \(RFC3339.format(end))"
        case (let start?, let end?): "taken \(RFC3339.format(start)) to \(RFC3339.format(end))"
        }
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
        let zones = try self.zoneBoundaries(console: console)
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
        for (index, event) in events.enumerated() {
            let heading =
                events.count > 1
                ? "Event \(index + 1) of \(events.count): \(event.name), " : "Event \"\(event.name)\", "
            console.status(heading + Self.describe(event.window))
        }
        // One pass over the files for every event: each file is read, hashed and dated once.
        let configuration = RunConfiguration(
            paths: self.distinctPaths(console: console), events: events, includeHidden: self.settings.includeHidden,
            dryRun: self.settings.dryRun, limits: limits,
            timeZone: zone, zones: zones,
            thumbnailer: Thumbnailer(
                maxPixels: self.settings.maxPixels,
                jpegShrink: self.settings.fastThumbnails ? .toTheTarget : .twiceTheTarget),
            excludedPaths: [(catalogPath as NSString).deletingLastPathComponent] + target.excludedPaths,
            nearEdgeMargin: TimeInterval(self.settings.nearEdge * 60), shard: self.settings.shard.flatMap(Shard.init),
            retryFailed: self.settings.retryFailed)
        let pipeline = Pipeline(
            configuration: configuration, destination: target.destination, catalog: catalog, context: context)
        let progress = ProgressLine(
            quiet: self.settings.quiet, heading: events.count > 1 ? "\(events.count) events" : nil)
        let display = RunDisplay(
            progress: progress, report: reportWriter, events: events.count, log: log,
            statsInterval: self.settings.stats)
        // A dry run records nothing: its page is made of the outcomes as they go by.
        if self.settings.html != nil && self.settings.dryRun { display.htmlPhotos = [:] }
        let reports = try await pipeline.run(observer: display, stop: stop)
        progress.clear()
        let lostOutcomes = try self.summarize(reports, display: display, zone: zone, console: console)
        withExtendedLifetime((catalogLock, target.lock)) {}
        var status = Self.exitStatus(reports, lostOutcomes: lostOutcomes)
        if let html = self.settings.html {
            do {
                try await self.writeHTML(
                    html, reports: reports, photos: display.htmlPhotos, catalog: catalog,
                    destination: target.destination.identity, started: started)
                console.status("HTML report: \(html)")
            } catch {
                console.status("photoingest: error: \(error)", always: true)
                log.error("\(error)", metadata: ["event": "report.failed"])
                status = max(status, 1)
            }
        }
        for report in reports {
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
            reports, bytesRead: display.lastProgress.bytesRead, started: started, exitStatus: status, log: log)
        return status
    }

    /// `--html`: a dry run's page from its outcomes as they went by; any other run's from the
    /// catalog, which also knows what the files this run found unchanged hold (their outcome, time
    /// and hash), so that a re-run's page shows the event, not a wall of "unchanged".
    func writeHTML(
        _ path: String, reports: [RunReport], photos: [String: [ReportPhoto]]?, catalog: Catalog?,
        destination: String, started: Date
    ) async throws {
        if !self.settings.dryRun, let catalog,
            let page = try await CatalogReport.page(
                catalog, run: nil, nearEdgeMargin: TimeInterval(self.settings.nearEdge * 60))
        {
            try await HTMLReportFile.write(page, to: path, jobs: self.settings.jobs)
            return
        }
        let fromRun = ReportPage(
            title: "photoingest run, " + CatalogReport.title(started), destination: destination,
            dryRun: self.settings.dryRun,
            events: reports.map {
                ReportEvent(
                    name: $0.event.name, window: $0.event.window, summaryLine: $0.closingLine,
                    photos: photos?[$0.event.id] ?? [])
            })
        try await HTMLReportFile.write(fromRun, to: path, jobs: self.settings.jobs)
    }

    /// The paths, each file or folder once: the same one given twice, or through a link, is walked once.
    func distinctPaths(console: Console) -> [String] {
        var seen: [String: String] = [:]
        var distinct: [String] = []
        for path in self.settings.paths {
            var status = stat()
            guard stat(path, &status) == 0 else {
                distinct.append(path)
                continue
            }
            let key = "\(status.st_dev):\(status.st_ino)"
            if let first = seen[key] {
                console.status("'\(path)' is '\(first)' again: walked once.")
                continue
            }
            seen[key] = path
            distinct.append(path)
        }
        return distinct
    }

    /// Takes a run lock, telling the user whom it waits for.
    func lock(_ path: String, what: String, shared: Bool = false, console: Console) async throws(IngestError) -> RunLock
    {
        try await RunLock(path: path, what: what, shared: shared, wait: !self.settings.noWait) { holder in
            console.status("Waiting for \(holder) to finish with \(what) (--no-wait to stop instead)…", always: true)
        }
    }

    /// Where the photos go and into which events, with what else the run needs to know of it.
    struct Target {
        var destination: any Destination
        var events: [Event]
        /// Called on the first Ctrl-C: uploads in flight get --stall-timeout to finish, then are
        /// given up (their files end pending).
        var finishInFlight: @Sendable () -> Void = {}
        /// Folders the walk must not enter (the archive's own).
        var excludedPaths: [String] = []
        /// The archive's run lock, held to the end of the run.
        var lock: RunLock?
    }

    /// The server and its events (every one it lists, or those named), else the archive and the
    /// events of --event/--from/--until or --events.
    func target(context: StageContext, console: Console) async throws -> Target {
        if let client = try self.settings.connection.client() {
            console.status("Asking \(client.address.shown) for its events…")
            let stallTimeout = TimeInterval(self.settings.connection.stallTimeout)
            let target = Target(
                destination: ServerDestination(client: client), events: try await self.serverEvents(client),
                finishInFlight: { client.finishInFlight(within: stallTimeout) })
            console.status(
                "Ingesting into \(client.address.shown)"
                    + (self.settings.dryRun ? " (dry run: nothing will be uploaded)" : ""))
            return target
        }
        let archivePath = Discovery.absolute(self.settings.archive)
        let name = self.settings.event.first ?? "default"
        let events =
            try self.settings.eventsFile.map(EventsFile.events) ?? [
                Event(id: name, name: name, window: try self.window())
            ]
        console.status(
            "Ingesting into the archive \(archivePath)"
                + (self.settings.dryRun ? " (dry run: nothing will be written)" : ""))
        // A dry run creates nothing: it reads the archive if there is one, else finds it empty.
        guard !self.settings.dryRun else {
            let archive = try Archive(existingAt: archivePath)
            return Target(
                destination: ArchiveDestination(archive: archive, root: archivePath, io: context.io), events: events,
                excludedPaths: [archivePath])
        }
        try Archive.checkRoot(archivePath)
        do {
            try FileManager.default.createDirectory(atPath: archivePath, withIntermediateDirectories: true)
        } catch {
            throw IngestError(
                .archiveUnusable, "cannot create the archive \(archivePath): \(error.localizedDescription)")
        }
        // Shards share an archive (they write disjoint files); a whole run has it to itself.
        let lock = try await self.lock(
            archivePath + "/" + ArchiveLayout.lock, what: "the archive \(archivePath)",
            shared: self.settings.shard != nil,
            console: console)
        let archive = try Archive(root: archivePath)
        // Left by a run killed mid-write; an hour old, so another live run's are left alone.
        archive.removeStaleTemporaryFiles(olderThan: 3_600)
        return Target(
            destination: ArchiveDestination(archive: archive, root: archivePath, io: context.io), events: events,
            excludedPaths: [archivePath], lock: lock)
    }

    /// The end-of-run text and the --json object. With several events: each event's details, what
    /// holds for the whole run (said once), the elapsed time, and last each event's summary line.
    /// Returns whether some event's outcomes do not add up to the files found (a bug, said as such).
    func summarize(_ reports: [RunReport], display: RunDisplay, zone: TimeZone, console: Console) throws -> Bool {
        var lostOutcomes = false
        for report in reports {
            if !report.totalsAgree {
                // A bug, never the user's input: say it, and fail the run rather than call it complete.
                console.status(
                    "photoingest: error: \(report.filesDiscovered) files were found but \(report.filesSeen) ended with an "
                        + "outcome for event \(report.event.name); please report this bug", always: true)
                lostOutcomes = true
            }
            if reports.count == 1 { console.summary(report.text) }
        }
        let run = display.lastProgress
        let seconds = reports.first?.elapsedSeconds ?? 0
        let filesPerSecond = seconds > 0 ? Double(run.done - run.unchanged) / seconds : 0
        if reports.count > 1 {
            var lines: [String] = []
            for (index, report) in reports.enumerated() where !report.details.isEmpty {
                lines.append("Event \(index + 1) of \(reports.count), \(report.event.name):")
                lines += report.details
            }
            lines += reports[0].runLines
            lines.append(
                RunReport.elapsedLine(seconds, files: run.done, filesPerSecond: filesPerSecond, bytes: run.bytesRead))
            lines.append("All events: \(display.outsideAll) photos outside every event's window")
            for (index, report) in reports.enumerated() {
                lines.append("Event \(index + 1) of \(reports.count), \(report.event.name): \(report.closingLine)")
            }
            console.summary(lines.joined(separator: "\n"))
        }
        guard self.settings.json else { return lostOutcomes }
        // Several events: each one's object, and the run's totals, files counted once.
        var object: [String: Any] =
            reports.count == 1
            ? reports[0].jsonObject
            : [
                "events": reports.map(\.jsonObject), "outsideAllEvents": display.outsideAll,
                "totals": [
                    "files": run.done, "unchanged": run.unchanged, "bytes": run.bytesRead, "seconds": seconds,
                    "filesPerSecond": filesPerSecond,
                ],
            ]
        object["timeZone"] = zone.name
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        console.output(String(decoding: data, as: UTF8.self))
        return lostOutcomes
    }

    /// The exit status the help promises.
    static func exitStatus(_ reports: [RunReport], lostOutcomes: Bool) -> Int32 {
        // A refused token or a server gone stops the run: said apart from failed files. Ctrl-C
        // wins over the failures it caused.
        if let code = reports.lazy.compactMap(\.fatalErrorCode).first {
            return ExitStatus.of(IngestError(IngestError.Code(code), ""))
        }
        if reports.contains(where: \.interrupted) { return ExitStatus.interrupted }
        if lostOutcomes || reports.contains(where: { $0.count(.failed) > 0 || $0.catalogProblem != nil }) {
            return ExitStatus.someFailed
        }
        return 0
    }

    /// `--metrics-file`, at the end of the run, whether it went well or not.
    func writeMetrics(_ reports: [RunReport], bytesRead: Int64, started: Date, exitStatus: Int32, log: Logger) {
        guard let path = self.settings.metricsFile, !self.settings.dryRun else { return }
        let metrics = RunMetrics()
        metrics.record(
            reports: reports, bytesRead: bytesRead, seconds: Date().timeIntervalSince(started), exitStatus: exitStatus,
            now: Date(), previous: try? String(contentsOfFile: path, encoding: .utf8))
        do {
            try metrics.write(to: path)
        } catch {
            log.error("\(error.message)", metadata: ["event": "metrics.failed"])
        }
    }

    /// The events to ingest into: those named with --event (by id, or by a name only one event
    /// has), else every event the server lists.
    func serverEvents(_ client: PhotoShareClient) async throws -> [Event] {
        let listed = try await ServerSettings.events(of: client)
        if self.settings.event.isEmpty {
            guard !listed.isEmpty else {
                throw IngestError(.serverUnusable, "the server lists no events for this user")
            }
            return listed
        }
        return try self.settings.event.map { wanted in
            if let event = listed.first(where: { $0.id == wanted }) { return event }
            let named = listed.filter { $0.name == wanted }
            guard named.count == 1 else {
                throw IngestError(
                    .invalidConfiguration,
                    named.isEmpty
                        ? "the server lists no event with the id or name \(wanted) for this user; `photoingest events` shows the ones it has"
                        : "\(named.count) events are named \(wanted): give one's id (\(named.map(\.id).joined(separator: ", ")))"
                )
            }
            return named[0]
        }
    }
}

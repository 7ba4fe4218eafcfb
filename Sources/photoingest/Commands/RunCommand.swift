import ArgumentParser
import Foundation
import IngestArchive
import IngestCatalog
import IngestCore
import IngestImaging
import IngestPipeline
import IngestTransport
import Logging

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Ingest every photo under the given files and folders.",
        discussion: """
            Supported: photos in JPEG, HEIC/HEIF, AVIF, WebP, PNG and TIFF; videos in MP4/M4V, QuickTime \
            MOV and 3GPP (streamed, never held in memory; thumbnails from a frame near 1 s). Recognised by \
            their content, not their name. Other files are reported as skipped, with the reason.

            With no server, photos go into a local archive: each original stored once by its SHA-256, with \
            500 px and 200 px JPEG thumbnails and an SQLite index of which event holds which photo.

            With --server, photos go to a PhotoShare server: for every event the server lists (or those \
            named with --event), the photos taken inside its window that it does not hold yet are uploaded \
            with their thumbnails. All events are done in one pass: each file is read once, and a photo \
            inside several windows goes to each. Tokens come from PHOTOINGEST_TOKEN and \
            PHOTOINGEST_UPLOAD_TOKEN, or from --token-command.

            A file that does not decode is not tried again while it is unchanged (--retry-failed to force \
            it); it is counted among the known broken files, not as this run's failure.

            Exit status: 0 when every file ended well (uploaded, duplicate, outside, skipped or known \
            broken), 1 when some failed in this run, 2 for a usage or configuration error, 3 when the \
            server could not be used (it refused the token, or answered nothing for \
            --unreachable-timeout; the files not done are left for the next run), 75 when another run holds the catalog or \
            archive and --no-wait was given, 130 when stopped by Ctrl-C (the first lets the files in \
            flight finish, the second stops at once).

            Examples:
              photoingest run ~/Pictures/2025-party
              photoingest run /mnt/card --event "Birthday Party" \\
                  --from 2025-09-27T21:00:00Z --until 2025-09-28T05:00:00Z --timezone America/Los_Angeles
              photoingest run ~/Pictures/2025 --events weekend.csv    # name,start,end: every event in one pass
              photoingest run photos/ --dry-run --report - --quiet
              photoingest run photos/ --archive /srv/archive --catalog /srv/catalog.sqlite --json
              PHOTOINGEST_TOKEN=… photoingest run /mnt/card --server https://photoshare.example.com
              photoingest run /mnt/card --server https://photoshare.example.com --event 26696588-5edb-4b1e-8256-77fcdf7c089d \
                  --token-command 'pass show photoshare/token' --uploads 8
            """)

    @Argument(help: "Files and folders to ingest (folders are walked recursively).")
    var paths: [String]

    @Option(help: ArgumentHelp("The local archive to store into.", valueName: "dir"))
    var archive: String = Defaults.archive

    @Option(
        help: ArgumentHelp(
            "In the archive: the event's name (default \"default\"). With a server: an event id (repeatable; default: every event the server lists).",
            valueName: "event"))
    var event: [String] = []

    @Option(
        help: ArgumentHelp(
            "Start of the event's window (RFC 3339; a time with no zone is UTC; a date alone, its first instant in UTC). Photos before it are outside.",
            valueName: "time"))
    var from: String?

    @Option(
        help: ArgumentHelp(
            "End of the event's window, included (RFC 3339; no zone means UTC; a date alone, its last instant in UTC, so the whole day is in).",
            valueName: "time"))
    var until: String?

    @Option(
        name: .customLong("events"),
        help: ArgumentHelp(
            "In the archive: several events from a file, JSON ([{\"name\", \"start\", \"end\"}, …]) or CSV (header name,start,end); all in one pass.",
            valueName: "file"))
    var eventsFile: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "List photos outside the window by less than this, and those inside only thanks to an assumed zone.",
            valueName: "minutes"))
    var nearEdge: Int = 60

    @Option(
        help: ArgumentHelp(
            "Take only shard K of N (0-based): the files whose path, relative to its root, hashes into it. Give each shard its own --catalog.",
            valueName: "K/N"))
    var shard: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Photos decoded at once (default: the number of cores).", valueName: "n"))
    var jobs: Int = Defaults.cores

    @Option(help: ArgumentHelp("The catalog that makes re-runs resumable.", valueName: "file"))
    var catalog: String = Defaults.catalog

    @Option(
        name: [.customLong("timezone"), .customLong("tz")],
        help: ArgumentHelp(
            "Zone for EXIF times that carry no offset: an IANA name (Europe/Berlin, UTC) or an offset (+02:00); default this machine's.",
            valueName: "zone"))
    var timezone: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Refuse images with more pixels than this, before decoding.", valueName: "n"))
    var maxPixels: Int = 100_000_000

    @Flag(
        help: "Try again the files an earlier run found broken (they do not decode), even though they have not changed."
    )
    var retryFailed = false

    @Flag(
        help: "When another run is using the catalog or the archive, stop at once (exit status 75) instead of waiting.")
    var noWait = false

    @Flag(help: "Also ingest hidden files and folders (names starting with a dot).")
    var includeHidden = false

    @Flag(help: "Decide everything, write and upload nothing (neither archive nor catalog).")
    var dryRun = false

    @Option(help: ArgumentHelp("Write one JSON line per file to this file (- for standard output).", valueName: "file"))
    var report: String?

    @Flag(help: "Print one JSON summary object on standard output at the end.")
    var json = false

    @Flag(help: "No progress line and no summary text; errors are still printed.")
    var quiet = false

    @OptionGroup(title: "PhotoShare server")
    var connection: ServerOptions

    func validate() throws {
        if self.paths.isEmpty { throw ValidationError("Give at least one file or folder to ingest.") }
        for path in self.paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("'\(path)': no such file or folder to ingest.")
        }
        if self.jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if self.maxPixels < 1 { throw ValidationError("--max-pixels must be at least 1.") }
        if self.nearEdge < 0 { throw ValidationError("--near-edge cannot be negative.") }
        if let shard = self.shard, Shard(shard) == nil {
            throw ValidationError(
                "--shard '\(shard)' is not K/N with 0 ≤ K < N, e.g. 0/4 (K as in JOB_COMPLETION_INDEX).")
        }
        _ = try self.window()
        _ = try self.zone()
        try self.connection.validateServer()
        if self.connection.serverURL == nil && self.event.count > 1 {
            throw ValidationError("The archive takes one --event name per run.")
        }
        if self.eventsFile != nil && (!self.event.isEmpty || self.from != nil || self.until != nil) {
            throw ValidationError("--events names every event with its window: drop --event, --from and --until.")
        }
        if self.connection.serverURL != nil && self.eventsFile != nil {
            throw ValidationError("With a server, the events come from the server: drop --events (--event picks some).")
        }
        if let file = self.eventsFile { _ = try EventsFile.events(at: file) }
        if self.connection.serverURL != nil && (self.from != nil || self.until != nil) {
            throw ValidationError("With a server, the events' windows come from the server: drop --from and --until.")
        }
        if self.report == "-" && self.json {
            throw ValidationError("--report - and --json both write to standard output; send the report to a file.")
        }
    }

    func window() throws -> EventWindow {
        func parse(_ text: String?, _ option: String, dayEnd: Bool) throws -> Date? {
            guard let text else { return nil }
            guard let date = RFC3339.windowBound(text, isEnd: dayEnd) else {
                throw ValidationError(
                    "\(option) '\(text)' is not an RFC 3339 time or a date, e.g. 2025-09-27T21:00:00Z, 2025-09-27T14:00:00-07:00 or 2025-09-27."
                )
            }
            return date
        }
        let window = EventWindow(
            start: try parse(self.from, "--from", dayEnd: false), end: try parse(self.until, "--until", dayEnd: true))
        if let start = window.start, let end = window.end, start > end {
            throw ValidationError("--from is after --until: the window would hold no photo.")
        }
        return window
    }

    func zone() throws -> TimeZone {
        try Defaults.zone(named: self.timezone)
    }

    static func describe(_ window: EventWindow) -> String {
        switch (window.start, window.end) {
        case (nil, nil): "any capture time"
        case (let start?, nil): "taken from \(RFC3339.format(start))"
        case (nil, let end?): "taken until \(RFC3339.format(end))"
        case (let start?, let end?): "taken \(RFC3339.format(start)) to \(RFC3339.format(end))"
        }
    }

    func run() async throws {
        let zone = try self.zone()
        let catalogPath = Discovery.absolute(self.catalog)
        let console = Console(quiet: self.quiet, stdoutTaken: self.json || self.report == "-")
        if self.timezone == nil, let warning = Defaults.zoneVariableWarning() {
            console.status("warning: " + warning, always: true)
        }
        console.status(
            "Time zone for EXIF times without an offset: \(zone.identifier)"
                + (self.timezone == nil ? " (this machine's; --timezone to change)" : ""))
        // A dry run writes nothing, so it creates no catalog; an existing one still says what is done.
        let catalog = self.dryRun ? try Catalog(readingAt: catalogPath) : try Catalog(path: catalogPath)
        // One run at a time per catalog: a second one would redo the same work and cross its counts.
        let catalogLock =
            self.dryRun
            ? nil : try await self.lock(catalogPath + ".lock", what: "the catalog \(catalogPath)", console: console)

        let limits = Limits(jobs: self.jobs, uploads: self.connection.serverURL == nil ? 0 : self.connection.uploads)
        var logger = Logger(label: "photoingest")
        logger.logLevel = .warning
        let context = StageContext(logger: logger, limits: limits)
        defer { context.shutdown() }

        let target = try await self.target(context: context, console: console)
        let reportWriter = try self.report.map { path throws(IngestError) in try ReportWriter(path: path) }
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
            paths: self.distinctPaths(console: console), events: events, includeHidden: self.includeHidden,
            dryRun: self.dryRun, limits: limits,
            timeZone: zone, thumbnailer: Thumbnailer(maxPixels: self.maxPixels),
            excludedPaths: [(catalogPath as NSString).deletingLastPathComponent] + target.excludedPaths,
            nearEdgeMargin: TimeInterval(self.nearEdge * 60), shard: self.shard.flatMap(Shard.init),
            retryFailed: self.retryFailed)
        let pipeline = Pipeline(
            configuration: configuration, destination: target.destination, catalog: catalog, context: context)
        let progress = ProgressLine(quiet: self.quiet, heading: events.count > 1 ? "\(events.count) events" : nil)
        let display = RunDisplay(progress: progress, report: reportWriter, events: events.count)
        let reports = try await pipeline.run(observer: display, stop: stop)
        progress.clear()
        let lostOutcomes = try self.summarize(reports, display: display, zone: zone, console: console)
        withExtendedLifetime((catalogLock, target.lock)) {}
        try Self.exit(reports, lostOutcomes: lostOutcomes)
    }

    /// The paths, each file or folder once: the same one given twice, or through a link, is walked once.
    func distinctPaths(console: Console) -> [String] {
        var seen: [String: String] = [:]
        var distinct: [String] = []
        for path in self.paths {
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
        try await RunLock(path: path, what: what, shared: shared, wait: !self.noWait) { holder in
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
        if let client = try self.connection.client() {
            console.status("Asking \(client.address.shown) for its events…")
            let stallTimeout = TimeInterval(self.connection.stallTimeout)
            let target = Target(
                destination: ServerDestination(client: client), events: try await self.serverEvents(client),
                finishInFlight: { client.finishInFlight(within: stallTimeout) })
            console.status(
                "Ingesting into \(client.address.shown)" + (self.dryRun ? " (dry run: nothing will be uploaded)" : ""))
            return target
        }
        let archivePath = Discovery.absolute(self.archive)
        let name = self.event.first ?? "default"
        let events =
            try self.eventsFile.map(EventsFile.events) ?? [Event(id: name, name: name, window: try self.window())]
        console.status(
            "Ingesting into the archive \(archivePath)" + (self.dryRun ? " (dry run: nothing will be written)" : ""))
        // A dry run creates nothing: it reads the archive if there is one, else finds it empty.
        guard !self.dryRun else {
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
            archivePath + "/" + ArchiveLayout.lock, what: "the archive \(archivePath)", shared: self.shard != nil,
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
        for (index, report) in reports.enumerated() {
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
        guard self.json else { return lostOutcomes }
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
        object["timeZone"] = zone.identifier
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        console.output(String(decoding: data, as: UTF8.self))
        return lostOutcomes
    }

    /// The exit status the help promises.
    static func exit(_ reports: [RunReport], lostOutcomes: Bool) throws {
        // A refused token or a server gone stops the run: said apart from failed files. Ctrl-C
        // wins over the failures it caused.
        if let code = reports.lazy.compactMap(\.fatalErrorCode).first {
            throw ExitCode(Photoingest.exitStatus(for: IngestError(IngestError.Code(code), "")))
        }
        if reports.contains(where: \.interrupted) { throw ExitCode(Photoingest.interruptedExitCode) }
        if lostOutcomes || reports.contains(where: { $0.count(.failed) > 0 || $0.catalogProblem != nil }) {
            throw ExitCode.failure
        }
    }

    /// The events to ingest into: those named with --event (by id, or by a name only one event
    /// has), else every event the server lists.
    func serverEvents(_ client: PhotoShareClient) async throws -> [Event] {
        let listed = try await ServerOptions.events(of: client)
        if self.event.isEmpty {
            guard !listed.isEmpty else {
                throw IngestError(.serverUnusable, "the server lists no events for this user")
            }
            return listed
        }
        return try self.event.map { wanted in
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

/// Where text goes: machine output on standard output; status and summary on standard output
/// too, unless standard output carries JSON, in which case they go to standard error.
struct Console {
    var quiet: Bool
    var stdoutTaken: Bool

    func status(_ line: String, always: Bool = false) {
        guard always || !self.quiet else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    func summary(_ text: String) {
        guard !self.quiet else { return }
        let handle = self.stdoutTaken ? FileHandle.standardError : FileHandle.standardOutput
        handle.write(Data((text + "\n").utf8))
    }

    func output(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

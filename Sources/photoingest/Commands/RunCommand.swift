import ArgumentParser
import Foundation
import IngestArchive
import IngestCatalog
import IngestCore
import IngestImaging
import IngestPipeline
import Logging

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Ingest every photo under the given files and folders.",
        discussion: """
            Supported: JPEG, HEIC/HEIF, AVIF, WebP, PNG and TIFF, recognised by their content, not their \
            name. Other files are reported as skipped, with the reason.

            With no server, photos go into a local archive: each original stored once by its SHA-256, with \
            500 px and 200 px JPEG thumbnails and an SQLite index of which event holds which photo.

            Exit status: 0 when every file ended well (uploaded, duplicate, outside or skipped), 1 when some \
            failed, 2 for a usage or configuration error, 130 when stopped by Ctrl-C.

            Examples:
              photoingest run ~/Pictures/2025-party
              photoingest run /mnt/card --event "Birthday Party" \\
                  --from 2025-09-27T21:00:00Z --until 2025-09-28T05:00:00Z --timezone America/Los_Angeles
              photoingest run photos/ --dry-run --report - --quiet
              photoingest run photos/ --archive /srv/archive --catalog /srv/catalog.sqlite --json
            """)

    @Argument(help: "Files and folders to ingest (folders are walked recursively).")
    var paths: [String]

    @Option(help: ArgumentHelp("The local archive to store into.", valueName: "dir"))
    var archive: String = Defaults.archive

    @Option(help: ArgumentHelp("The event (in the archive: its name).", valueName: "name"))
    var event: String = "default"

    @Option(
        help: ArgumentHelp(
            "Start of the event's window (RFC 3339; a time with no zone is UTC). Photos before it are outside.",
            valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("End of the event's window, included (RFC 3339; no zone means UTC).", valueName: "time"))
    var until: String?

    @Option(
        help: ArgumentHelp(
            "List photos outside the window by less than this, and those inside only thanks to an assumed zone.",
            valueName: "minutes"))
    var nearEdge: Int = 60

    @Option(help: ArgumentHelp("Photos decoded at once (default: the number of cores).", valueName: "n"))
    var jobs: Int = Defaults.cores

    @Option(help: ArgumentHelp("The catalog that makes re-runs resumable.", valueName: "file"))
    var catalog: String = Defaults.catalog

    @Option(
        help: ArgumentHelp(
            "IANA zone for EXIF times that carry no offset (default: this machine's zone).", valueName: "zone"))
    var timezone: String?

    @Option(help: ArgumentHelp("Refuse images with more pixels than this, before decoding.", valueName: "n"))
    var maxPixels: Int = 100_000_000

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

    func validate() throws {
        if self.paths.isEmpty { throw ValidationError("Give at least one file or folder to ingest.") }
        for path in self.paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("'\(path)' does not exist.")
        }
        if self.jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if self.maxPixels < 1 { throw ValidationError("--max-pixels must be at least 1.") }
        if self.nearEdge < 0 { throw ValidationError("--near-edge cannot be negative.") }
        _ = try self.window()
        _ = try self.zone()
        if self.report == "-" && self.json {
            throw ValidationError("--report - and --json both write to standard output; send the report to a file.")
        }
    }

    func window() throws -> EventWindow {
        func parse(_ text: String?, _ option: String) throws -> Date? {
            guard let text else { return nil }
            guard let date = RFC3339.parse(text) else {
                throw ValidationError(
                    "\(option) '\(text)' is not an RFC 3339 time, e.g. 2025-09-27T21:00:00Z or 2025-09-27T14:00:00-07:00.")
            }
            return date
        }
        let window = EventWindow(start: try parse(self.from, "--from"), end: try parse(self.until, "--until"))
        if let start = window.start, let end = window.end, start > end {
            throw ValidationError("--from is after --until: the window would hold no photo.")
        }
        return window
    }

    func zone() throws -> TimeZone {
        guard let name = self.timezone else { return TimeZone.current }
        guard let zone = TimeZone(identifier: name) else {
            throw ValidationError("--timezone '\(name)' is not an IANA time zone name, e.g. Europe/Berlin or UTC.")
        }
        return zone
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
        let event = Event(id: self.event, name: self.event, window: try self.window())
        let zone = try self.zone()
        let archivePath = Discovery.absolute(self.archive)
        let catalogPath = Discovery.absolute(self.catalog)
        let console = Console(quiet: self.quiet, stdoutTaken: self.json || self.report == "-")

        console.status(
            "Time zone for EXIF times without an offset: \(zone.identifier)"
                + (self.timezone == nil ? " (this machine's; --timezone to change)" : ""), always: true)
        console.status(
            "Ingesting into the archive \(archivePath), event \"\(event.name)\", \(Self.describe(event.window))"
                + (self.dryRun ? " (dry run: nothing will be written)" : ""))

        let archive = try Archive(root: archivePath)
        // A dry run writes nothing, so it creates no catalog; an existing one still says what is done.
        let catalog =
            self.dryRun && !FileManager.default.fileExists(atPath: catalogPath) ? nil : try Catalog(path: catalogPath)
        let reportWriter = try self.report.map { path throws(IngestError) in try ReportWriter(path: path) }

        let limits = Limits(jobs: self.jobs)
        var logger = Logger(label: "photoingest")
        logger.logLevel = .warning
        let context = StageContext(logger: logger, limits: limits)
        defer { context.shutdown() }
        let configuration = RunConfiguration(
            paths: self.paths, event: event, includeHidden: self.includeHidden, dryRun: self.dryRun, limits: limits,
            timeZone: zone, thumbnailer: Thumbnailer(maxPixels: self.maxPixels),
            excludedPaths: [archivePath, (catalogPath as NSString).deletingLastPathComponent],
            nearEdgeMargin: TimeInterval(self.nearEdge * 60))
        let pipeline = Pipeline(
            configuration: configuration, destination: ArchiveDestination(archive: archive, io: context.io),
            catalog: catalog, context: context)

        let stop = StopRequest()
        Interrupts.install(stop)
        let progress = ProgressLine(quiet: self.quiet)
        let display = RunDisplay(progress: progress, report: reportWriter, event: event)
        let report: RunReport
        do {
            report = try await pipeline.run(observer: display, stop: stop)
        } catch {
            progress.clear()
            reportWriter?.close()
            throw error
        }
        progress.clear()
        reportWriter?.close()

        precondition(report.totalsAgree, "every file must end with exactly one outcome")
        console.summary(report.text)
        if self.json {
            var object = report.jsonObject
            object["timeZone"] = zone.identifier
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            console.output(String(decoding: data, as: UTF8.self))
        }
        if report.count(.failed) > 0 || report.catalogProblem != nil { throw ExitCode.failure }
        if report.interrupted { throw ExitCode(130) }
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

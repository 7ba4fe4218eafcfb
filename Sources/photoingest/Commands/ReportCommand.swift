import ArgumentParser
import Configuration
import Foundation
import IngestApp
import IngestReport

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Draw a past import's report again from its catalog, or from its shards' catalogs.",
        discussion: """
            The page shows each event of the run as the catalog held it after that run: the run's \
            summary line, a timeline of the window and contact sheets by outcome. The catalog keeps \
            each file's latest outcome only: a file a later run decided again is not on an earlier \
            run's page. Thumbnails come from the archive when the run stored into one; otherwise \
            they are made from the files (those still there) and embedded, at most --thumbnails. \
            The catalog and --near-edge default to what `run` would use (flags, PHOTOINGEST_* \
            variables, the config file). An older catalog is brought to the current schema.

            A sharded import (`run --shard K/N`) leaves one catalog per shard: give them all (the \
            files, their folder, or a quoted pattern) for one page and one summary. The counts are \
            the sum of the shards that finished; the timeline and sheets hold every shard's photos. \
            A shard whose catalog is not there (named as the others are: catalog-2.sqlite beside \
            catalog-1.sqlite), one still running and one stopped before its end are named.

            Without --html or --json the summary is printed: each catalog's state and each event's \
            line. --json prints it as one JSON object (parts, events, complete).

            --list prints the catalog's runs instead, one line each: the id --run takes, when it \
            began, where it went and each event's summary line.

            Examples:
              photoingest report --html last-run.html
              photoingest report /srv/state/catalog.sqlite --list
              photoingest report /srv/state/catalog.sqlite --run 42 --html run-42.html
              photoingest report /shared/state/ --html import.html --json
              photoingest report '/shared/state/catalog-*.sqlite'
            """)

    @Argument(
        help: ArgumentHelp(
            "The catalogs to read: files, folders (their *.sqlite) or a quoted pattern. Default: the one `run` uses.",
            valueName: "catalog"))
    var catalogs: [String] = []

    @OptionGroup var configFile: ConfigFileOption

    @Option(help: ArgumentHelp("Write the page to this file.", valueName: "file"))
    var html: String?

    @Flag(help: "Print the summary as JSON: each catalog's state, each event's counts summed over them.")
    var json = false

    @Flag(help: "List the catalog's runs (id, start, destination, each event's summary) instead of drawing one.")
    var list = false

    @Option(help: ArgumentHelp("A run's id (any of its events'); default: the latest run.", valueName: "id"))
    var run: Int64?

    @Option(
        help: ArgumentHelp(
            "Minutes from a window's edge within which a photo is marked for a look (default: run's, 60).",
            valueName: "minutes"))
    var nearEdge: Int?

    @Option(help: ArgumentHelp("At most this many thumbnails embedded in the page.", valueName: "count"))
    var thumbnails = ReportThumbnails.defaultEmbedLimit

    @Option(help: ArgumentHelp("Thumbnails made at once.", valueName: "count"))
    var jobs = Defaults.cores

    func validate() throws {
        if self.list, self.html != nil || self.json {
            throw ValidationError("--list prints the runs; --html and --json show one: give one of them.")
        }
        if let html = self.html, let problem = HTMLReportFile.problem(writing: html) {
            throw ValidationError("--html '\(html)': \(problem)")
        }
        if self.thumbnails < 0 { throw ValidationError("--thumbnails cannot be negative.") }
        if self.jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    }

    func run() async throws {
        var given: [String: ConfigContent] = [:]
        given["near-edge"] = self.nearEdge.map { .int($0) }
        let settings = try await Settings.resolve(given: given, configPath: self.configFile.config)
        let page = try CatalogPage(settings: settings, given: self.catalogs)
        if self.list {
            print(try await page.list())
            return
        }
        let report = try await page.read(run: self.run)
        if let html = self.html {
            try await page.write(report, to: html, thumbnails: self.thumbnails, jobs: self.jobs)
        }
        if self.json {
            print(report.summary.jsonText)
            return
        }
        for line in report.summary.lines { print(line) }
        if let html = self.html { print("HTML report: \(html)") }
    }
}

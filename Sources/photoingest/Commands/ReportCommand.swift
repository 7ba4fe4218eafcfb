import ArgumentParser
import Configuration
import Foundation
import IngestApp
import IngestReport

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Draw a past run's HTML report again from the catalog.",
        discussion: """
            The page shows each event of the run as the catalog held it after that run: the run's
            summary line, a timeline of the window and contact sheets by outcome. The catalog keeps
            each file's latest outcome only: a file a later run decided again is not on an earlier
            run's page. Thumbnails come from the archive when the run stored into one; otherwise
            they are made from the files (those still there) and embedded, at most --thumbnails.
            The catalog and --near-edge default to what `run` would use (flags, PHOTOINGEST_*
            variables, the config file). An older catalog is brought to the current schema.

            --list prints the catalog's runs instead, one line each: the id --run takes, when it \
            began, where it went and each event's summary line.

            Examples:
              photoingest report --html last-run.html
              photoingest report /srv/state/catalog.sqlite --list
              photoingest report /srv/state/catalog.sqlite --run 42 --html run-42.html
            """)

    @Argument(help: ArgumentHelp("The catalog to read. Default: the one `run` uses.", valueName: "catalog"))
    var catalog: String?

    @OptionGroup var configFile: ConfigFileOption

    @Option(help: ArgumentHelp("Write the page to this file.", valueName: "file"))
    var html: String?

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
        switch (self.html, self.list) {
        case (nil, false): throw ValidationError("Give --html FILE to draw a run's page, or --list to see the runs.")
        case (_?, true): throw ValidationError("--list prints the runs; --html draws one: give one of them.")
        default: break
        }
        if let html = self.html, let problem = HTMLReportFile.problem(writing: html) {
            throw ValidationError("--html '\(html)': \(problem)")
        }
        if self.thumbnails < 0 { throw ValidationError("--thumbnails cannot be negative.") }
        if self.jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    }

    func run() async throws {
        var given: [String: ConfigContent] = [:]
        given["catalog"] = self.catalog.map { .string($0) }
        given["near-edge"] = self.nearEdge.map { .int($0) }
        let settings = try await Settings.resolve(given: given, configPath: self.configFile.config)
        guard let html = self.html else {
            print(try await CatalogPage(settings: settings).list())
            return
        }
        try await CatalogPage(settings: settings).write(
            run: self.run, to: html, thumbnails: self.thumbnails, jobs: self.jobs)
        print("HTML report: \(html)")
    }
}

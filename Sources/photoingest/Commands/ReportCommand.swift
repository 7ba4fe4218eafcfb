import ArgumentParser
import Foundation
import IngestCatalog
import IngestReport

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Draw a past run's HTML report again from the catalog.",
        discussion: """
            The page shows each event of the run as the catalog held it after that run: the run's
            summary line, a timeline of the window and contact sheets by outcome. Thumbnails come
            from the archive when the run stored into one; otherwise they are made from the files
            (those still there) and embedded, at most --thumbnails of them.

            Examples:
              photoingest report --html last-run.html
              photoingest report /srv/state/catalog.sqlite --run 42 --html run-42.html
            """)

    @Argument(help: ArgumentHelp("The catalog to read. Default: the one `run` uses.", valueName: "catalog"))
    var catalog: String?

    @Option(help: ArgumentHelp("Write the page to this file.", valueName: "file"))
    var html: String

    @Option(help: ArgumentHelp("A run's id (any of its events'); default: the latest run.", valueName: "id"))
    var run: Int64?

    @Option(
        help: ArgumentHelp(
            "Minutes from a window's edge within which a photo is marked for a look.", valueName: "minutes"))
    var nearEdge = 60

    @Option(help: ArgumentHelp("At most this many thumbnails embedded in the page.", valueName: "count"))
    var thumbnails = ReportThumbnails.defaultEmbedLimit

    @Option(help: ArgumentHelp("Thumbnails made at once.", valueName: "count"))
    var jobs = Defaults.cores

    func validate() throws {
        if let problem = HTMLReportFile.problem(writing: self.html) {
            throw ValidationError("--html '\(self.html)': \(problem)")
        }
        if self.nearEdge < 0 { throw ValidationError("--near-edge cannot be negative.") }
        if self.thumbnails < 0 { throw ValidationError("--thumbnails cannot be negative.") }
        if self.jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    }

    func run() async throws {
        let path = self.catalog ?? Defaults.catalog
        guard FileManager.default.fileExists(atPath: path) else {
            throw ValidationError("There is no catalog at '\(path)': no run has recorded anything there.")
        }
        let catalog = try Catalog(path: path)
        guard
            let page = try await CatalogReport.page(
                catalog, run: self.run, nearEdgeMargin: TimeInterval(self.nearEdge * 60))
        else {
            throw ValidationError(
                self.run.map { "The catalog '\(path)' has no run \($0)." } ?? "The catalog '\(path)' records no run.")
        }
        try await HTMLReportFile.write(page, to: self.html, jobs: self.jobs, embedLimit: self.thumbnails)
        print("HTML report: \(self.html)")
    }
}

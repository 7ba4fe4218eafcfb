import Foundation
import IngestCatalog
import IngestReport

/// `photoingest report`: a past run's HTML page, drawn again from the catalog, or the list of
/// the runs it records.
public struct CatalogPage {
    let settings: Settings

    public init(settings: Settings) {
        self.settings = settings
    }

    /// Writes the page of `run` (default: the latest) to `html`, with at most `thumbnails`
    /// thumbnails embedded, made `jobs` at a time.
    ///
    /// - Throws: ``UsageError`` when there is no catalog or no such run in it; the catalog's or
    ///   the page's errors otherwise.
    public func write(run: Int64?, to html: String, thumbnails: Int, jobs: Int) async throws {
        let path = self.settings.catalog
        let catalog = try self.open()
        guard
            var page = try await CatalogReport.page(
                catalog, run: run, nearEdgeMargin: TimeInterval(self.settings.nearEdge * 60))
        else {
            throw UsageError(
                run.map { "The catalog '\(path)' has no run \($0)." } ?? "The catalog '\(path)' records no run.")
        }
        page.zone = try? Defaults.zone(named: self.settings.timezone)
        try await HTMLReportFile.write(page, to: html, jobs: jobs, embedLimit: thumbnails)
    }

    /// `report --list`: the catalog's runs, a line each, with the id `--run` takes.
    public func list() async throws -> String {
        try await CatalogReport.list(try self.open())
    }

    private func open() throws -> Catalog {
        let path = self.settings.catalog
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError("There is no catalog at '\(path)': no run has recorded anything there.")
        }
        return try Catalog(path: path)
    }
}

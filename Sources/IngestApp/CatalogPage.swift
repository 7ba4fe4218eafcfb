import Foundation
import IngestCatalog
import IngestReport

/// `photoingest report`: an import's page, summary or list of runs, drawn again from its catalog,
/// or from the catalogs of its shards.
public struct CatalogPage {
    let settings: Settings
    /// The catalogs read: those given (folders and patterns expanded), or the one `run` uses.
    public let catalogs: [String]

    /// - Throws: ``UsageError`` for a folder or pattern naming no catalog.
    public init(settings: Settings, given: [String] = []) throws {
        self.settings = settings
        self.catalogs = given.isEmpty ? [settings.catalog] : try ReportCatalogs.expand(given)
    }

    /// The import as the catalogs hold it: `run` (default: the latest) of one catalog, or the
    /// latest run of each of several.
    ///
    /// - Throws: ``UsageError`` when one catalog is given and it is not there or has no such run,
    ///   or `run` is given with several; the catalogs' errors otherwise.
    public func read(run: Int64?) async throws -> ImportReport {
        if self.catalogs.count == 1 {
            let path = self.catalogs[0]
            try Self.requireCatalog(path)
            guard try await Catalog(readingOnly: path).invocation(of: run).first != nil else {
                throw UsageError(
                    run.map { "The catalog '\(path)' has no run \($0)." } ?? "The catalog '\(path)' records no run.")
            }
        } else if run != nil {
            throw UsageError(
                "--run names a run of one catalog; \(self.catalogs.count) were given (each one's latest run is read).")
        }
        var report = try await ImportReport.read(
            catalogs: self.catalogs, run: run, nearEdgeMargin: self.settings.run.nearEdgeMargin)
        report.page.zone = self.settings.timezone ?? TimeZone.current
        return report
    }

    /// Writes `report`'s page to `html`, with at most `thumbnails` thumbnails embedded, made
    /// `jobs` at a time.
    public func write(_ report: ImportReport, to html: String, thumbnails: Int, jobs: Int) async throws {
        try await HTMLReportFile.write(report.page, to: html, jobs: jobs, embedLimit: thumbnails)
    }

    /// `report --list`: each catalog's runs, a line each, with the id `--run` takes.
    public func list() async throws -> String {
        var lists: [String] = []
        for path in self.catalogs {
            try Self.requireCatalog(path)
            let list = try await CatalogReport.list(try Catalog(readingOnly: path))
            lists.append(self.catalogs.count == 1 ? list : "# \(path)\n" + list)
        }
        return lists.joined(separator: "\n\n")
    }

    private static func requireCatalog(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError("There is no catalog at '\(path)': no run has recorded anything there.")
        }
    }
}

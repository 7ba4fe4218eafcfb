import Foundation
import IngestApp
import IngestTesting
import Testing

@Suite struct ReportCatalogsTests {
    let root = TemporaryFolder("report-catalogs")

    func touch(_ names: [String]) throws {
        for name in names {
            let url = self.root.appending(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data().write(to: url)
        }
    }

    @Test("A folder stands for its catalogs, in number order, their lock and journal files left out")
    func folder() throws {
        try self.touch([
            "state/catalog-10.sqlite", "state/catalog-2.sqlite", "state/catalog-2.sqlite.lock",
            "state/catalog-2.sqlite-wal", "state/notes.txt",
        ])
        let state = self.root.appending("state").path
        #expect(try ReportCatalogs.expand([state]) == [state + "/catalog-2.sqlite", state + "/catalog-10.sqlite"])
        // Given twice (the folder and one of its files), each is read once.
        #expect(try ReportCatalogs.expand([state + "/", state + "/catalog-2.sqlite"]).count == 2)
    }

    @Test("A pattern the shell did not expand is expanded; a missing file stays, as a shard that has not run")
    func patterns() throws {
        try self.touch(["s/catalog-0.sqlite", "s/catalog-1.sqlite", "s/other.sqlite"])
        let s = self.root.appending("s").path
        #expect(
            try ReportCatalogs.expand([s + "/catalog-*.sqlite"]) == [s + "/catalog-0.sqlite", s + "/catalog-1.sqlite"])
        #expect(try ReportCatalogs.expand([s + "/catalog-9.sqlite"]) == [s + "/catalog-9.sqlite"])
    }

    @Test("A folder without a catalog, or a pattern matching none, is a usage error that names it")
    func nothingThere() throws {
        try self.touch(["empty/readme.txt"])
        let empty = self.root.appending("empty").path
        #expect(throws: UsageError.self) { try ReportCatalogs.expand([empty]) }
        do {
            _ = try ReportCatalogs.expand([empty + "/catalog-*.sqlite"])
            Issue.record("no error")
        } catch let error as UsageError {
            #expect(error.message == "No catalog matches '\(empty)/catalog-*.sqlite'.")
        }
    }
}

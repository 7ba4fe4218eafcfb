import Foundation
import IngestApp
import IngestTesting
import Testing

/// Where the catalog lies: inside the folder walked (a config with `catalog:` under `paths:` is an
/// easy mistake), the folder's photos are still ingested and the catalog's own files passed over.
@Suite struct CatalogPlacementTests {
    @Test("A catalog inside the folder walked: its photos are stored, its own files passed over, a re-run does nothing")
    func catalogInsideTheFolder() throws {
        let cli = CommandLine("catalog-inside")
        let photos = cli.folder.appending("m2")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for number in 1...3 {
            try FileManager.default.copyItem(
                at: TestEnvironment.repository.appendingPathComponent("samples/IMG_000\(number).jpg"),
                to: photos.appendingPathComponent("IMG_000\(number).jpg"))
        }
        let catalog = photos.appendingPathComponent("cat.sqlite")
        func run() throws -> (result: ProcessResult, lines: [FileLine]) {
            let report = cli.folder.appending("report-\(UUID().uuidString.prefix(6)).ndjson")
            let result = try cli.run([
                "run", photos.path, "--catalog", catalog.path, "--archive", cli.archive.path, "--timezone", "UTC",
                "--report", report.path,
            ])
            let lines = ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONDecoder().decode(FileLine.self, from: Data($0.utf8))
            }
            return (result, lines)
        }
        let first = try run()
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(first.result.stdout.contains("3 Stored"), "\(first.result.stdout)")
        #expect(first.lines.filter { $0.status == .uploaded }.count == 3)
        #expect(!first.lines.contains { $0.path.contains("cat.sqlite") }, "\(first.lines.map(\.path))")
        // Again: the catalog (now with its journal beside it) is still not a file to take.
        let second = try run()
        #expect(second.result.status == 0, "\(second.result.stderr)")
        #expect(second.lines.allSatisfy { $0.status == .skipped }, "\(second.lines.map { "\($0.path) \($0.status)" })")
        #expect(!second.lines.contains { $0.path.contains("cat.sqlite") }, "\(second.lines.map(\.path))")
    }
}

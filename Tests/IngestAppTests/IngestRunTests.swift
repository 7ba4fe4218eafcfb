import Configuration
import Foundation
import IngestApp
import IngestCore
import IngestOutcome
import IngestPipeline
import IngestTesting
import Testing

/// `photoingest run`, called in process on the samples, into a local archive.
@Suite(.serialized) struct IngestRunTests {
    let folder = TemporaryFolder("ingest-run")

    func settings(_ given: [String: ConfigContent]) async throws -> Settings {
        try await Settings.resolve(given: given, configPath: nil, environment: [:])
    }

    @Test("A run stores the samples and exits 0; the next finds them all done, and its report lines decode as FileLine")
    func runsInProcess() async throws {
        let photos = self.folder.appending("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ["IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg"] {
            try FileManager.default.copyItem(
                at: TestEnvironment.repository.appendingPathComponent("samples/" + name),
                to: photos.appendingPathComponent(name))
        }
        let given: [String: ConfigContent] = [
            "paths": .stringArray([photos.path]), "archive": .string(self.folder.appending("archive").path),
            "catalog": .string(self.folder.appending("catalog.sqlite").path), "timezone": .string("UTC"),
            "quiet": .bool(true),
        ]
        #expect(try await IngestRun(settings: try await self.settings(given)).run() == ExitStatus.success)
        let report = self.folder.appending("report.ndjson")
        var again = given
        again["report"] = .string(report.path)
        #expect(try await IngestRun(settings: try await self.settings(again)).run() == ExitStatus.success)
        let lines = try String(contentsOf: report, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(FileLine.self, from: Data($0.utf8))
        }
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.status == .skipped && $0.reason == Verdict.unchangedReason })
    }
}

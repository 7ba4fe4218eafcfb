import Foundation
import IngestApp
import IngestCore
import IngestTesting
import Testing

/// `photoingest verify` through the built binaries: what a run gave the destination is checked
/// there, what is gone is named and marked, and the next run gives it again.
@Suite struct VerifyRunTests {
    static let corpusFolder = TemporaryFolder("verify-corpus")
    /// 12 photos, each its own bytes, of a fifth of a megapixel, all taken on 2025-09-27.
    static let corpus: Result<URL, Error> = Result {
        try Fixtures.corpus(count: 12, seed: 57, megapixels: 0.2, in: corpusFolder)
    }

    /// `verify` with this folder's catalog (and archive, unless `extra` names a server), `--json`.
    func verify(_ cli: CommandLine, _ extra: [String] = [], environment: [String: String] = [:]) throws -> (
        status: Int32, report: VerifyReport?, result: ProcessResult
    ) {
        let result = try cli.run(
            ["verify", "--catalog", cli.catalog.path, "--json"]
                + (extra.contains("--server") ? [] : ["--archive", cli.archive.path]) + extra,
            environment: environment)
        return (result.status, try? JSONDecoder().decode(VerifyReport.self, from: Data(result.stdout.utf8)), result)
    }

    /// Photos whose bytes only one file of the corpus has: removing one from the destination
    /// makes exactly that file missing.
    static func unique(_ run: Ingest) -> [FileLine] {
        let stored = run.entries.filter { $0.status == .uploaded }
        return stored.filter { line in run.entries.filter { $0.sha256 == line.sha256 }.count == 1 }
            .sorted { $0.path < $1.path }
    }

    @Test(
        "Photos removed from the server's store after a run: verify names exactly those, exit 4; the next run sends them again, saying why"
    )
    func photosRemovedFromTheServer() throws {
        let server = try ReferenceServer()
        let event = try server.addEvent(name: "Party", start: "2025-09-26T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let cli = CommandLine("verify-server")
        let environment = ["PHOTOINGEST_TOKEN": try server.token()]
        let connection = ["--server", server.url]
        let first = try cli.ingest(
            [try Self.corpus.get()], connection + ["--timezone", "UTC"], environment: environment)
        #expect(first.status == 0, "\(first.result.stderr)")
        let given = first.count("uploaded") + first.count("duplicate")
        #expect(given == 12)

        let held = try self.verify(cli, connection, environment: environment)
        #expect(held.status == 0, "\(held.result.stderr)")
        #expect(held.report?.isWhole == true)
        #expect(held.report?.checked == given)
        #expect(held.report?.events.map(\.name) == ["Party"])

        // A restore from an older backup: three photos gone from the event.
        let removed = Array(Self.unique(first).prefix(3))
        let hashes = removed.compactMap(\.sha256)
        #expect(hashes.count == 3)
        try server.sql(
            "DELETE FROM event_photo WHERE sha256 IN (\(hashes.map { "'\($0)'" }.joined(separator: ",")))")
        let found = try self.verify(cli, connection, environment: environment)
        #expect(found.status == ExitStatus.notWhole, "\(found.result.stderr)")
        let report = try #require(found.report, "\(found.result.stdout)")
        #expect(Set(report.missing.map(\.sha256)) == Set(hashes))
        #expect(Set(report.missing.map(\.path)) == Set(removed.map(\.path)))
        #expect(report.missing.allSatisfy { $0.event == event && $0.eventName == "Party" && $0.sourceExists })
        #expect(report.events.first?.missing == 3)
        #expect(report.held == given - 3)
        // Until a run sends them again, they are still missing: said again, in text, the verdict last.
        let text = try cli.run(["verify", "--catalog", cli.catalog.path] + connection, environment: environment)
        #expect(text.status == ExitStatus.notWhole)
        for line in removed { #expect(text.stdout.contains(line.path)) }
        #expect(text.stdout.split(separator: "\n").last?.hasPrefix("Not whole: 3 of 12 files missing") == true)

        let again = try cli.ingest(
            [try Self.corpus.get()], connection + ["--timezone", "UTC"], environment: environment)
        #expect(again.status == 0, "\(again.result.stderr)")
        let resent = again.entries.filter { $0.status == .uploaded }
        #expect(Set(resent.map(\.path)) == Set(removed.map(\.path)))
        #expect(again.result.stderr.contains("Given again: 3"), "\(again.result.stderr)")
        #expect(resent.allSatisfy { $0.reason?.hasPrefix("sent again: missing from the server") == true }, "\(resent)")
        #expect(try server.sql("SELECT count(*) FROM event_photo WHERE event_id = '\(event)'") == "12")
        #expect(try self.verify(cli, connection, environment: environment).status == 0)
    }

    @Test(
        "A byte flipped in an archived original: verify names it and moves it aside, exit 4; the next run restores it")
    func aDamagedArchiveOriginal() throws {
        let cli = CommandLine("verify-archive")
        let first = try cli.ingest([try Self.corpus.get()], ["--timezone", "UTC"])
        #expect(first.status == 0, "\(first.result.stderr)")
        #expect(try self.verify(cli).report?.isWhole == true)

        let victim = try #require(Self.unique(first).first)
        let hash = try #require(victim.sha256)
        let original = cli.archive.appending(path: "originals/\(hash.prefix(2))/\(hash).jpg")
        var bytes = try Data(contentsOf: original)
        bytes[bytes.count / 2] ^= 0x10
        try bytes.write(to: original)

        let found = try self.verify(cli)
        #expect(found.status == ExitStatus.notWhole, "\(found.result.stderr)")
        let report = try #require(found.report)
        #expect(report.originalsChecked == 12)
        #expect(report.damaged.map(\.sha256) == [hash])
        #expect(report.missing.map(\.path) == [victim.path])
        #expect(!FileManager.default.fileExists(atPath: original.path))
        #expect(FileManager.default.fileExists(atPath: cli.archive.appending(path: "damaged/\(hash).jpg").path))

        let again = try cli.ingest([try Self.corpus.get()], ["--timezone", "UTC"])
        #expect(again.status == 0, "\(again.result.stderr)")
        #expect(again.entries.filter { $0.status == .uploaded }.map(\.path) == [victim.path])
        #expect(try Fixtures.sha256sum(original) == hash)
        #expect(try self.verify(cli).status == 0)
    }

    @Test("No catalog where one is looked for: said, exit 2, nothing made")
    func noCatalog() throws {
        let cli = CommandLine("verify-nothing")
        let result = try self.verify(cli)
        #expect(result.status == ExitStatus.usage)
        #expect(result.result.stderr.contains("there is no catalog at \(cli.catalog.path)"), "\(result.result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.catalog.path))
    }
}

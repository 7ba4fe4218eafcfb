import Foundation
import IngestTesting
import Testing

/// The archive's disk fills up mid-run: a small tmpfs mounted on the archive folder for the run.
@Suite(.enabled(if: SmallFileSystem.isAvailable, "needs unshare and tmpfs mounts (a mount namespace)"))
struct DiskFullTests {
    @Test("A full archive disk: a clear error per file, nothing corrupt left, the catalog keeps those files not done")
    func archiveDiskFull() throws {
        let folder = TemporaryFolder("disk-full")
        let corpus = try Fixtures.corpus(count: 40, seed: 44, megapixels: 0.2, in: folder)
        let archive = folder.appending("archive")
        let snapshot = folder.appending("archive-after")
        let catalog = folder.appending("catalog.sqlite")
        let report = folder.appending("report.ndjson")
        try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: snapshot, withIntermediateDirectories: true)

        // Room for some of the photos only; what the run leaves on the small disk is copied out.
        let command = SmallFileSystem.command(
            mounting: archive.path, bytes: 1_500_000,
            script: "\"$@\"; status=$?; cp -a \"$0\"/. \"\(snapshot.path)\"/; exit $status",
            [
                TestEnvironment.photoingest.path, "run", corpus.path, "--archive", archive.path, "--catalog", catalog.path,
                "--report", report.path, "--json",
            ])
        let run = try runProgram(command[0], Array(command.dropFirst()))
        #expect(run.status == 1, "\(run.stderr.suffix(2_000))")
        let entries = try String(contentsOf: report, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let failed = entries.filter { $0["status"] as? String == "failed" }
        let stored = entries.filter { $0["status"] as? String == "uploaded" }
        try #require(!failed.isEmpty, "the disk never filled up")
        #expect(!stored.isEmpty, "nothing fit at all: the test shows nothing about partial writes")
        for entry in failed {
            let reason = entry["error"] as? String ?? ""
            #expect(entry["errorCode"] as? String == "storeFailed", "\(entry)")
            #expect(reason.contains("No space left on device") || reason.contains("disk is full"), "\(reason)")
        }

        // Nothing corrupt: every original there hashes to its name, every thumbnail decodes,
        // and no temporary file is left.
        let originals = TestEnvironment.files(under: snapshot.appendingPathComponent("originals"))
        var corrupt = 0
        for original in originals where try Fixtures.sha256sum(original) != original.deletingPathExtension().lastPathComponent {
            Issue.record("a corrupt original: \(original.lastPathComponent)")
            corrupt += 1
        }
        for thumbnail in TestEnvironment.files(under: snapshot.appendingPathComponent("thumbnails"))
        where (try? Fixtures.dimensions(of: thumbnail)) == nil {
            Issue.record("a broken thumbnail: \(thumbnail.lastPathComponent)")
            corrupt += 1
        }
        #expect(TestEnvironment.files(under: snapshot.appendingPathComponent("tmp")).isEmpty)
        // Every photo reported stored is there; the catalog calls no failed file done.
        let storedHashes = Set(stored.compactMap { $0["sha256"] as? String })
        #expect(storedHashes.isSubset(of: Set(originals.map { $0.deletingPathExtension().lastPathComponent })))
        #expect(try Fixtures.catalogHashes(catalog, statuses: ["uploaded"]) == storedHashes)

        // With room again (the copy on the real disk: another destination to the catalog, so every
        // file is looked at again), the next run finds what was stored and stores exactly the rest.
        let later = try runProgram(
            TestEnvironment.photoingest.path,
            ["run", corpus.path, "--archive", snapshot.path, "--catalog", catalog.path, "--json"])
        #expect(later.status == 0, "\(later.stderr.suffix(2_000))")
        let summary = try JSONSerialization.jsonObject(with: Data(later.stdout.utf8)) as? [String: Any]
        let counts = summary?["counts"] as? [String: Int] ?? [:]
        let photos = try Fixtures.photoHashes(in: corpus)
        #expect(counts["uploaded"] == photos.count - storedHashes.count)
        #expect(counts["failed", default: 0] == 0)
        #expect(TestEnvironment.files(under: snapshot.appendingPathComponent("originals")).count == photos.count)
        ReliabilityFigure.record(
            "archive disk full", ["files": entries.count, "storedBeforeFull": stored.count, "failedDiskFull": failed.count, "corrupt": corrupt])
    }

    @Test("A full server data disk: uploads fail with the server's reason, nothing corrupt is kept, a later run completes")
    func serverDiskFull() throws {
        let folder = TemporaryFolder("server-disk-full")
        let corpus = try Fixtures.corpus(count: 40, seed: 45, megapixels: 0.2, in: folder)
        let server = try ReferenceServer()
        let event = try server.addEvent(name: "Party", start: "2000-01-01T00:00:00Z", end: "2100-01-01T00:00:00Z")
        try server.restart(dataLimit: 1_500_000)
        let cli = CommandLine("server-disk-full")
        let environment = ["PHOTOINGEST_TOKEN": try server.token()]
        let run = try cli.ingest([corpus], ["--server", server.url, "--retries", "1"], environment: environment)
        #expect(run.status == 1, "\(run.result.stderr.suffix(2_000))")
        let failed = run.entries.filter { $0["status"] as? String == "failed" }
        try #require(!failed.isEmpty, "the server's disk never filled up: \(run.result.stderr.suffix(2_000))")
        #expect(run.count("uploaded") > 0)
        for entry in failed {
            let reason = entry["error"] as? String ?? ""
            #expect(reason.contains("No space left on device") || reason.contains("full"), "\(reason)")
        }

        // What the server kept, copied out of its small disk to the real one; the server goes on
        // from that copy, on the same port, with room again.
        try #require(runProgram("/bin/cp", ["-a", server.dataView.path + "/.", server.data.path + "/"]).status == 0)
        try server.restart()
        var corrupt = 0
        for original in TestEnvironment.files(under: server.data.appending("originals"))
        where try Fixtures.sha256sum(original) != original.deletingPathExtension().lastPathComponent {
            Issue.record("a corrupt original: \(original.lastPathComponent)")
            corrupt += 1
        }
        #expect(TestEnvironment.files(under: server.data.appending("tmp")).isEmpty)
        let held = Set(try server.sql("SELECT sha256 FROM event_photo WHERE event_id = '\(event)'").split(separator: "\n").map(String.init))
        let done = try Fixtures.catalogHashes(cli.catalog, statuses: ["uploaded", "duplicate"])
        #expect(done == held, "catalog done \(done.count), server \(held.count), both \(done.intersection(held).count)")

        let later = try cli.ingest([corpus], ["--server", server.url], environment: environment)
        #expect(later.status == 0, "\(later.result.stderr.suffix(2_000))")
        let photos = try Fixtures.photoHashes(in: corpus)
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "\(photos.count)")
        ReliabilityFigure.record(
            "server disk full", ["files": run.entries.count, "uploadedBeforeFull": run.count("uploaded"), "failedDiskFull": failed.count, "corrupt": corrupt])
    }
}

import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// The archive's disk fills up mid-run: a small tmpfs mounted on the archive folder for the run.
@Suite(.enabled(if: SmallFileSystem.isAvailable, "needs unshare and tmpfs mounts (a mount namespace)"))
struct DiskFullTests {
    @Test(
        "A full archive disk: a clear error per file, nothing corrupt left, the catalog keeps those files not done; with room again the same archive is completed"
    )
    func archiveDiskFull() throws {
        let folder = TemporaryFolder("disk-full")
        let corpus = try Fixtures.corpus(count: 40, seed: 44, megapixels: 0.2, in: folder)
        let archive = folder.appending("archive")
        let full = folder.appending("archive-when-full")
        let resumed = folder.appending("archive-after-resume")
        let catalog = folder.appending("catalog.sqlite")
        let report = folder.appending("report.ndjson")
        let output = folder.appending("resume.json")
        for url in [archive, full, resumed] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        // Room for some of the photos only. What the run leaves on the small disk is copied out;
        // then the same file system gets room again (remount) and the same command, with the same
        // archive and catalog, runs again: a resume, as after a user frees space.
        let command = SmallFileSystem.command(
            mounting: archive.path, bytes: 1_500_000,
            script: """
                "$@" --report "\(report.path)"; status=$?; cp -a "$0"/. "\(full.path)"/
                mount -o remount,size=64m none "$0" || exit 98
                "$@" > "\(output.path)"; echo "resume exit $?" >&2; cp -a "$0"/. "\(resumed.path)"/
                exit $status
                """,
            [
                TestEnvironment.photoingest.path, "run", corpus.path, "--archive", archive.path, "--catalog",
                catalog.path, "--json",
            ])
        let run = try runProgram(command[0], Array(command.dropFirst()))
        #expect(run.status == 1, "\(run.stderr.suffix(2_000))")
        let entries = try String(contentsOf: report, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(FileLine.self, from: Data($0.utf8))
        }
        let failed = entries.filter { $0.status == .failed }
        let stored = entries.filter { $0.status == .uploaded }
        try #require(!failed.isEmpty, "the disk never filled up")
        #expect(!stored.isEmpty, "nothing fit at all: the test shows nothing about partial writes")
        for entry in failed {
            let reason = entry.error ?? ""
            #expect(entry.errorCode == "storeFailed", "\(entry)")
            #expect(reason.contains("No space left on device") || reason.contains("disk is full"), "\(reason)")
        }

        // Nothing corrupt when full: every original there hashes to its name, every thumbnail
        // decodes, and no temporary file is left.
        var corrupt = try Self.corruptFiles(in: full)
        #expect(TestEnvironment.files(under: full.appendingPathComponent("tmp")).isEmpty)
        let originals = TestEnvironment.files(under: full.appendingPathComponent("originals"))
        let storedHashes = Set(stored.compactMap(\.sha256))
        let failedHashes = Set(failed.compactMap(\.sha256))
        let originalHashes = Set(originals.map { $0.deletingPathExtension().lastPathComponent })
        // Every stored photo's original is there; any other is whole (checked above) and belongs to a
        // photo whose thumbnails ran out of room after it: the resume reuses it.
        #expect(storedHashes.isSubset(of: originalHashes))
        #expect(originalHashes.subtracting(storedHashes).isSubset(of: failedHashes))

        // The resume, read from the catalog: the stored files are not even opened again, the
        // failed ones are, and the archive ends whole.
        #expect(run.stderr.contains("resume exit 0"), "\(run.stderr.suffix(2_000))")
        let summary = try JSONDecoder().decode(JSONSummary.self, from: Data(contentsOf: output)).event
        let counts = summary?.counts
        let photos = try Fixtures.photoHashes(in: corpus)
        #expect(counts?.uploaded == photos.count - storedHashes.count, "\(counts as Any)")
        #expect(counts?.failed ?? -1 == 0)
        #expect(summary?.unchanged == entries.count - failed.count, "\(summary as Any)")
        let read = summary?.stages["read"]
        // Each failed file's bytes are read again to be stored, once per distinct content: a copy
        // whose twin the resume just stored is a duplicate by the hash the catalog kept, unread.
        let resumeRead = read?.count ?? -1
        #expect(
            failedHashes.count <= resumeRead && resumeRead <= failed.count,
            "the resume read \(read as Any) for \(failed.count) failed files of \(failedHashes.count) contents")
        let after = TestEnvironment.files(under: resumed.appendingPathComponent("originals"))
        #expect(Set(after.map { $0.deletingPathExtension().lastPathComponent }) == photos)
        corrupt += try Self.corruptFiles(in: resumed)
        #expect(TestEnvironment.files(under: resumed.appendingPathComponent("thumbnails/500")).count == photos.count)
        #expect(TestEnvironment.files(under: resumed.appendingPathComponent("thumbnails/200")).count == photos.count)
        #expect(TestEnvironment.files(under: resumed.appendingPathComponent("tmp")).isEmpty)
        #expect(try Fixtures.catalogHashes(catalog, statuses: ["uploaded", "duplicate"]) == photos)
        ReliabilityFigure.record(
            "archive disk full",
            [
                "files": entries.count, "storedBeforeFull": stored.count, "failedDiskFull": failed.count,
                "storedByResume": counts?.uploaded ?? -1, "readByResume": read?.count ?? -1,
                "corrupt": corrupt,
            ])
    }

    /// Originals that do not hash to their names and thumbnails that do not decode, each recorded.
    static func corruptFiles(in archive: URL) throws -> Int {
        var corrupt = 0
        for original in TestEnvironment.files(under: archive.appendingPathComponent("originals"))
        where try Fixtures.sha256sum(original) != original.deletingPathExtension().lastPathComponent {
            Issue.record("a corrupt original: \(original.lastPathComponent)")
            corrupt += 1
        }
        for thumbnail in TestEnvironment.files(under: archive.appendingPathComponent("thumbnails"))
        where (try? Fixtures.dimensions(of: thumbnail)) == nil {
            Issue.record("a broken thumbnail: \(thumbnail.lastPathComponent)")
            corrupt += 1
        }
        return corrupt
    }

    @Test(
        "A full server data disk: uploads fail with the server's reason, nothing corrupt is kept, a later run completes"
    )
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
        let failed = run.entries.filter { $0.status == .failed }
        try #require(!failed.isEmpty, "the server's disk never filled up: \(run.result.stderr.suffix(2_000))")
        #expect(run.count("uploaded") > 0)
        for entry in failed {
            let reason = entry.error ?? ""
            #expect(reason.contains("No space left on device") || reason.contains("full"), "\(reason)")
        }

        // Looked at while the server still runs on its full disk (a restart empties tmp/): no
        // half-written upload is left behind.
        let leftovers = TestEnvironment.files(under: server.dataView.appendingPathComponent("tmp"))
        #expect(leftovers.isEmpty, "left in the server's tmp/: \(leftovers.map(\.lastPathComponent))")
        // What the server kept, copied out of its small disk to the real one; the server goes on
        // from that copy, on the same port, with room again.
        try #require(runProgram("/bin/cp", ["-a", server.dataView.path + "/.", server.data.path + "/"]).status == 0)
        try server.restart()
        let corrupt = try Self.corruptFiles(in: server.data.url)
        let held = Set(try server.held(inEvent: event).keys)
        let done = try Fixtures.catalogHashes(cli.catalog, statuses: ["uploaded", "duplicate"])
        #expect(done == held, "catalog done \(done.count), server \(held.count), both \(done.intersection(held).count)")

        let later = try cli.ingest([corpus], ["--server", server.url], environment: environment)
        #expect(later.status == 0, "\(later.result.stderr.suffix(2_000))")
        let photos = try Fixtures.photoHashes(in: corpus)
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "\(photos.count)")
        ReliabilityFigure.record(
            "server disk full",
            [
                "files": run.entries.count, "uploadedBeforeFull": run.count("uploaded"), "failedDiskFull": failed.count,
                "leftInTmp": leftovers.count, "corrupt": corrupt,
            ])
    }
}

import Foundation
import IngestApp
import IngestCore
import IngestTesting
import Testing

/// Folder seals through the built binary: a re-run seals the folders whose files are all done,
/// the next ones count those folders without a lookup per file, and every change (a photo edited
/// in place, one gone from the archive) is still seen.
@Suite struct FolderSealRunTests {
    /// `photoingest run` into the folder's archive and catalog with `--json` and no report (a
    /// report lists each unchanged file, so such a run settles nothing).
    func run(_ cli: CommandLine, _ source: URL) throws -> (status: Int32, summary: JSONSummary, stderr: String) {
        let result = try cli.run(
            ["run", source.path, "--archive", cli.archive.path, "--catalog", cli.catalog.path, "--json"]
                + ["--timezone", "UTC"])
        let summary = try JSONDecoder().decode(JSONSummary.self, from: Data(result.stdout.utf8))
        return (result.status, summary, result.stderr)
    }

    @Test(
        "Re-runs settle the folders a run sealed and count their files as before; a photo edited in place or gone from the archive is still done again"
    )
    func settledFoldersStillSeeEveryChange() throws {
        let cli = CommandLine("folder-seal")
        let source = try Fixtures.corpus(count: 12, seed: 73, megapixels: 0.1, in: cli.folder)
        let photos = try FileManager.default.contentsOfDirectory(atPath: source.path).filter { $0.hasSuffix(".jpg") }
            .sorted()
        try #require(photos.count == 12)
        // Two folders of six photos; the manifest stays at the top, a file of its own folder.
        for (index, name) in photos.enumerated() {
            let folder = source.appending(path: index < 6 ? "a" : "b")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: source.appending(path: name), to: folder.appending(path: name))
        }
        let files = 13

        let first = try self.run(cli, source)
        #expect(first.status == 0, "\(first.stderr)")
        #expect((first.summary.event?.counts.uploaded ?? 0) >= 11)
        #expect(first.summary.settledFolders == 0)

        // The first re-run looks up every file, and seals the three folders; the next settles them.
        let second = try self.run(cli, source)
        #expect(second.summary.event?.unchanged == files)
        #expect(second.summary.settledFolders == 0)
        let third = try self.run(cli, source)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.summary.event?.unchanged == files)
        #expect(third.summary.event?.files == files)
        #expect(third.summary.settledFolders == 3 && third.summary.settledFiles == files)
        #expect(third.summary.event?.stages["read"] == nil)
        #expect(third.summary.event?.counts.skipped == files)

        // A run with a report lists every file, so it settles none; its counts are the same.
        let reported = try cli.ingest([source], ["--timezone", "UTC"])
        #expect(reported.entries.count == files)
        #expect(reported.summary?.settledFolders == 0)
        #expect(reported.summary?.event?.unchanged == files)

        // Dates fixed in place, keeping the file's times (exiftool -P): only the ctime moves.
        let edited = source.appending(path: "b/" + photos[7])
        _ = try Fixtures.check(
            runProgram("exiftool", ["-q", "-P", "-overwrite_original_in_place", "-AllDates+=1:0:0", edited.path]))
        let fourth = try self.run(cli, source)
        #expect(fourth.status == 0, "\(fourth.stderr)")
        #expect(fourth.summary.event?.stages["read"]?.count == 1)
        #expect(fourth.summary.event?.counts.uploaded == 1)
        #expect(fourth.summary.settledFolders == 2, "the folder of the edited photo was settled")
        // Its folder is sealed again by the next run, and settled by the one after.
        #expect(try self.run(cli, source).summary.settledFolders == 2)
        #expect(try self.run(cli, source).summary.settledFolders == 3)

        // A photo gone from the archive: verify marks it, which breaks its folder's seal, and the
        // next run stores it again.
        let gone = source.appending(path: "a/" + photos[2])
        let hex = try Fixtures.sha256sum(gone)
        try FileManager.default.removeItem(at: cli.archive.appending(path: "originals/\(hex.prefix(2))/\(hex).jpg"))
        let verify = try cli.run(["verify", "--catalog", cli.catalog.path, "--archive", cli.archive.path])
        #expect(verify.status == ExitStatus.notWhole, "\(verify.stdout)\(verify.stderr)")
        let restored = try self.run(cli, source)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.summary.event?.counts.uploaded == 1)
        #expect(restored.summary.settledFolders == 2)
        let original = cli.archive.appending(path: "originals/\(hex.prefix(2))/\(hex).jpg")
        #expect(FileManager.default.fileExists(atPath: original.path))
    }
}

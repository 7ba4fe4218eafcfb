import Foundation
import IngestApp
import IngestCore
import IngestTesting
import Testing

/// An inbox that is an unmounted share's mount point is empty: not a quiet success.
@Suite struct EmptySourceTests {
    @Test(
        "A folder that yields no file where the catalog knows files (an unmounted share): a warning and exit 6; --allow-empty takes it; a new empty folder is fine"
    )
    func anEmptyMountPointIsSaid() throws {
        let cli = CommandLine("empty-source")
        let inbox = try Fixtures.corpus(count: 3, seed: 67, megapixels: 0.1, in: cli.folder)
        let first = try cli.ingest([inbox], ["--timezone", "UTC"])
        #expect(first.status == 0, "\(first.result.stderr)")

        // The share goes away: its mount point stays, empty.
        let elsewhere = cli.folder.appending("unmounted")
        try FileManager.default.moveItem(at: inbox, to: elsewhere)
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: false)
        let empty = try cli.ingest([inbox], ["--timezone", "UTC"])
        #expect(empty.status == ExitStatus.emptySource, "\(empty.result.stderr)")
        #expect(
            empty.result.stderr.contains(
                "warning: \(inbox.path) yielded no file, while the catalog knows 4 files under it"),
            "\(empty.result.stderr)")
        let allowed = try cli.ingest([inbox], ["--timezone", "UTC", "--allow-empty"])
        #expect(allowed.status == 0)
        #expect(allowed.result.stderr.contains("yielded no file, while the catalog knows 4 files"))

        // A file system's own folder and a desktop's hidden file: still no photo, still said.
        try FileManager.default.createDirectory(
            at: inbox.appendingPathComponent("lost+found"), withIntermediateDirectories: false)
        try Data("x".utf8).write(to: inbox.appendingPathComponent(".DS_Store"))
        let bare = try cli.ingest([inbox], ["--timezone", "UTC"])
        #expect(bare.status == ExitStatus.emptySource, "\(bare.result.stderr)")
        #expect(bare.result.stderr.contains("warning: \(inbox.path) yielded no file"), "\(bare.result.stderr)")

        // Given back, the share's files are all known: no warning.
        try FileManager.default.removeItem(at: inbox)
        try FileManager.default.moveItem(at: elsewhere, to: inbox)
        let back = try cli.ingest([inbox], ["--timezone", "UTC"])
        #expect(back.status == 0, "\(back.result.stderr)")
        #expect(!back.result.stderr.contains("yielded no file"))

        // A folder the catalog knows nothing under is new, not gone.
        let fresh = cli.folder.appending("fresh")
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: false)
        let new = try cli.ingest([fresh], ["--timezone", "UTC"])
        #expect(new.status == 0)
        #expect(!new.result.stderr.contains("yielded no file"))
    }
}

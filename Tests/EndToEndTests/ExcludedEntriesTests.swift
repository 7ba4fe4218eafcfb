import Foundation
import IngestTesting
import Testing

/// A nightly run over a NAS share: what the NAS, Windows and macOS keep beside the photos is
/// never ingested, and the run says how much it left out, by rule.
@Suite struct ExcludedEntriesTests {
    /// A Synology share: two photos, a Synology thumbnail of each (real JPEGs: without the
    /// rules they would be stored as photos), a recycle bin, macOS and Windows leftovers, and a
    /// folder of drafts its `.photoingestignore` names.
    static func share() throws -> TemporaryFolder {
        let share = TemporaryFolder("nas-share")
        let time = ["EXIF:DateTimeOriginal": "2024:05:04 15:16:17", "EXIF:OffsetTimeOriginal": "+02:00"]
        for name in ["2024/IMG_1.JPG", "2024/IMG_2.JPG", "2024/drafts/IMG_3.JPG", "#recycle/IMG_0.JPG"] {
            try FileManager.default.createDirectory(
                at: share.appending(name).deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = try Fixtures.jpeg(in: share, name: name, tags: time)
        }
        for photo in ["IMG_1.JPG", "IMG_2.JPG"] {
            let thumbnails = "2024/@eaDir/\(photo)"
            try FileManager.default.createDirectory(
                at: share.appending(thumbnails), withIntermediateDirectories: true)
            _ = try Fixtures.jpeg(in: share, name: thumbnails + "/SYNOPHOTO_THUMB_XL.jpg", width: 32, height: 24)
        }
        for (name, text) in [("2024/.DS_Store", "Bud1"), ("2024/Thumbs.db", "cache"), ("2024/._IMG_1.JPG", "fork")] {
            try Data(text.utf8).write(to: share.appending(name))
        }
        try Data("# work in progress\ndrafts\n".utf8).write(to: share.appending("2024/.photoingestignore"))
        return share
    }

    @Test("A Synology share stores exactly its photos; the summary counts what each rule left out")
    func synologyShare() throws {
        let share = try Self.share()
        let cli = CommandLine("nas")
        let run = try cli.ingest([share.url])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.count("stored") == 2)
        #expect(Set(run.entries.map { ($0.path as NSString).lastPathComponent }) == ["IMG_1.JPG", "IMG_2.JPG"])
        #expect(
            run.summary?.excluded == [
                "@eaDir": 1, "#recycle": 1, "drafts": 1, ".DS_Store": 1, "Thumbs.db": 1, "._*": 1,
            ])
        let files = try runProgram("sqlite3", [cli.catalog.path, "SELECT count(*) FROM file"]).stdout
        #expect(files.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "excluded files are not in the catalog")

        let text = try CommandLine("nas-text").run(["run", share.path, "--dry-run"])
        #expect(
            text.stdout.contains(
                "6 excluded: #recycle 1, .DS_Store 1, ._* 1, @eaDir 1, Thumbs.db 1, drafts 1 (--include GLOB takes a name back)"
            ), "\(text.stdout)")
    }

    @Test("--exclude from the command line or the environment, --include and --no-default-excludes")
    func userRules() throws {
        let share = try Self.share()
        let excluded = try CommandLine("nas-exclude").ingest(
            [share.url], ["--exclude", "IMG_2.*"], environment: ["PHOTOINGEST_EXCLUDE": "IMG_1.*"])
        // The flag wins over the environment, as for every setting.
        #expect(excluded.count("stored") == 1)
        #expect(excluded.entries.map { ($0.path as NSString).lastPathComponent } == ["IMG_1.JPG"])
        #expect(excluded.summary?.excluded["IMG_2.*"] == 1)

        let fromEnvironment = try CommandLine("nas-env").ingest(
            [share.url], environment: ["PHOTOINGEST_EXCLUDE": "IMG_1.*"])
        #expect(fromEnvironment.entries.map { ($0.path as NSString).lastPathComponent } == ["IMG_2.JPG"])

        let takenBack = try CommandLine("nas-include").ingest([share.url], ["--include", "drafts"])
        #expect(takenBack.count("stored") == 3)
        #expect(takenBack.summary?.excluded["drafts"] == nil)

        // Without the list the thumbnails and the bin's photo are stored as photos, Thumbs.db is
        // opened and skipped; hidden names stay out as hidden, the drafts as the ignore file says.
        let everything = try CommandLine("nas-all").ingest([share.url], ["--no-default-excludes"])
        #expect(everything.count("stored") == 5)
        #expect(everything.count("skipped") == 1)
        #expect(everything.summary?.excluded == ["drafts": 1])
    }
}

import Foundation
import IngestCore
import IngestTesting
import Testing

/// Zip files read in place through the built binary: their entries are files (photos and videos),
/// uploaded and stored from the zip, never unpacked; a re-run opens none; a damaged entry fails alone.
@Suite struct ZipRunTests {
    /// Zips `files` (names in the zip, files on disk) with Python's zipfile into `target`.
    static func zip(_ files: [(String, URL)], to target: URL, stored: Bool = false) throws {
        let pairs = files.map { [$0.0, $0.1.path] }
        let list = String(decoding: try JSONSerialization.data(withJSONObject: pairs), as: UTF8.self)
        let script = """
            import json, sys, zipfile
            method = zipfile.ZIP_STORED if sys.argv[3] == "stored" else zipfile.ZIP_DEFLATED
            with zipfile.ZipFile(sys.argv[1], "w", method) as z:
                for name, path in json.loads(sys.argv[2]):
                    z.write(path, name)
            """
        try Fixtures.check(runProgram("python3", ["-c", script, target.path, list, stored ? "stored" : "deflated"]))
    }

    /// A corpus of `count` small photos made in `folder`, and its photos in name order.
    static func photos(_ count: Int, seed: Int, in folder: TemporaryFolder) throws -> (URL, [URL]) {
        let corpus = try Fixtures.corpus(count: count, seed: seed, megapixels: 0.2, in: folder)
        return (
            corpus,
            TestEnvironment.files(under: corpus).filter { $0.pathExtension == "jpg" }.sorted { $0.path < $1.path }
        )
    }

    @Test("Photos in zip parts reach the server once each, as from folders; a re-run opens no entry")
    func zipParts() throws {
        let folder = TemporaryFolder("zip-run")
        let (corpus, photos) = try Self.photos(12, seed: 37, in: folder)
        #expect(photos.count == 12)
        let parts = folder.appending("takeout")
        try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        // Two parts, one deflated and one stored; a photo in both (an album's copy) is one photo.
        try Self.zip(
            photos[..<7].map { ("Takeout/Google Photos/2019/\($0.lastPathComponent)", $0) }
                + [("Takeout/archive_browser.html", corpus.appendingPathComponent("manifest.json"))],
            to: parts.appendingPathComponent("takeout-001.zip"))
        try Self.zip(
            photos[6...].map { ("Takeout/Google Photos/Album/\($0.lastPathComponent)", $0) },
            to: parts.appendingPathComponent("takeout-002.zip"), stored: true)
        try Data("x".utf8).write(to: parts.appendingPathComponent("takeout-003.tgz"))

        let server = try ReferenceServer()
        let event = try server.addEvent(name: "Takeout", start: "2000-01-01T00:00:00Z", end: "2030-01-01T00:00:00Z")
        let scratch = folder.appending("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let environment = ["PHOTOINGEST_TOKEN": try server.token(), "TMPDIR": scratch.path]
        let cli = CommandLine("zip-run-server")
        // One photo of the corpus has no time of its own: the zip entry's time places it.
        let options = ["--server", server.url, "--undated", "mtime"]
        let run = try cli.ingest([parts], options, environment: environment)
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.summary?.zipFiles == 2)
        #expect(try Set(server.held(inEvent: event).keys) == Fixtures.photoHashes(in: corpus))
        #expect(
            run.count("uploaded") == 12,
            "\(run.entries.filter { $0.status != .uploaded }.map { "\($0.path) \($0.status) \($0.reason ?? $0.error ?? "")" })"
        )
        #expect(run.count("duplicate") == 1)
        let inZip = try #require(run.entry(named: photos[0].lastPathComponent))
        #expect(inZip.path == parts.path + "/takeout-001.zip/Takeout/Google Photos/2019/" + photos[0].lastPathComponent)
        #expect(run.entry(named: "archive_browser.html")?.status == .skipped)
        #expect(run.entry(named: "takeout-003.tgz")?.reason?.hasPrefix("a tar file is not read in place") == true)
        // Nothing was unpacked: no temporary file, and no file beside the zips.
        #expect(TestEnvironment.files(under: scratch).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parts.path).count == 3)

        // A re-run decides from the zips' directories alone.
        let again = try cli.ingest([parts], options, environment: environment)
        #expect(again.status == 0, "\(again.result.stderr)")
        #expect(again.summary?.event?.unchanged == 14)
        #expect(again.summary?.event?.bytes == 0)
        #expect(try server.held(inEvent: event).count == 12)

        // The same files unpacked, into an archive: every photo has the outcome and time it had in the zips.
        let unpacked = folder.appending("unpacked")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        for photo in photos {
            try FileManager.default.copyItem(at: photo, to: unpacked.appendingPathComponent(photo.lastPathComponent))
        }
        let fromFolder = try CommandLine("zip-run-folder").ingest([unpacked])
        let fromZips = try CommandLine("zip-run-archive").ingest([parts])
        #expect(fromFolder.count("uploaded") == fromZips.count("uploaded"))
        for photo in photos {
            let unzipped = try #require(fromFolder.entry(named: photo.lastPathComponent))
            // A photo in both parts: one entry stored, the other a duplicate of it.
            let zipped = fromZips.entries.filter { $0.path.hasSuffix("/" + photo.lastPathComponent) }
            #expect(zipped.filter { $0.status == unzipped.status }.count == 1, "\(photo.lastPathComponent)")
            for entry in zipped {
                #expect(entry.captureSource == unzipped.captureSource && entry.sha256 == unzipped.sha256)
                // A file with no time of its own is dated by its modification time: the zip
                // entry's (to two seconds) against the copy's.
                if unzipped.captureSource != "file-mtime" { #expect(entry.captureTime == unzipped.captureTime) }
            }
        }
    }

    @Test("A damaged entry fails alone, with the reason; a damaged zip fails as one file")
    func damaged() throws {
        let folder = TemporaryFolder("zip-damaged")
        let (_, photos) = try Self.photos(3, seed: 38, in: folder)
        let zip = folder.appending("photos.zip")
        try Self.zip(photos.map { ($0.lastPathComponent, $0) }, to: zip, stored: true)
        // A byte in the middle of the second photo's data changed: its CRC-32 no longer holds.
        var bytes = Array(try Data(contentsOf: zip))
        let first = try Data(contentsOf: photos[0]).count
        let second = try Data(contentsOf: photos[1]).count
        let names = photos.map { $0.lastPathComponent.utf8.count }
        let secondStart: Int = 30 + names[0] + first + 30 + names[1]
        bytes[secondStart + second / 2] ^= 0x55
        try Data(bytes).write(to: zip)
        try Data("PK\u{5}\u{6} not a zip".utf8).write(to: folder.appending("broken.zip"))

        let run = try CommandLine("zip-damaged").ingest([zip, folder.appending("broken.zip")])
        #expect(run.entry(named: photos[0].lastPathComponent)?.status == .uploaded)
        let damaged = try #require(run.entry(named: photos[1].lastPathComponent))
        #expect(damaged.status == .failed)
        #expect(damaged.error?.contains("cannot read the zip entry: its CRC-32 does not match its content") == true)
        #expect(run.entry(named: photos[2].lastPathComponent)?.status == .uploaded)
        let broken = try #require(run.entry(named: "broken.zip"))
        #expect(broken.status == .failed)
        #expect(
            broken.error?.contains("not a readable zip file") == true
                || broken.reason?.contains("not a readable zip file") == true)
    }

    @Test(
        "Videos inside zip files, deflated or stored, moov first or last: hashed, dated, thumbnailed and sent from the zip, never unpacked"
    )
    func videos() throws {
        let folder = TemporaryFolder("zip-videos")
        let media = folder.appending("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let clips = [
            try Fixtures.video(in: folder, name: "media/VID_1.mp4", creationTime: "2024-05-04T13:16:17Z"),
            try Fixtures.video(
                in: folder, name: "media/VID_2.mp4", seconds: 4, creationTime: "2024-05-04T13:20:00Z", faststart: true),
            try Fixtures.video(in: folder, name: "media/VID_3.mov", seconds: 2, creationTime: "2024-05-04T14:00:00Z"),
        ]
        let parts = folder.appending("parts")
        try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        try Self.zip(
            clips[..<2].map { ("Takeout/Google Photos/2024/\($0.lastPathComponent)", $0) },
            to: parts.appendingPathComponent("takeout-001.zip"))
        try Self.zip(
            [("Takeout/Google Photos/2024/\(clips[2].lastPathComponent)", clips[2])],
            to: parts.appendingPathComponent("takeout-002.zip"), stored: true)
        let hashes = try clips.map { try Fixtures.sha256sum($0) }

        let server = try ReferenceServer()
        _ = try server.addEvent(name: "Trip", start: "2024-05-04T00:00:00Z", end: "2024-05-05T00:00:00Z")
        let scratch = folder.appending("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let environment = ["PHOTOINGEST_TOKEN": try server.token(), "TMPDIR": scratch.path]
        let cli = CommandLine("zip-videos-server")
        let options = ["--server", server.url, "--timezone", "UTC"]
        let run = try cli.ingest([parts], options, environment: environment)
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(
            run.count("uploaded") == 3,
            "\(run.entries.map { "\($0.path) \($0.status) \($0.reason ?? $0.error ?? "")" })")
        for (clip, hash) in Swift.zip(clips, hashes) {
            let entry = try #require(run.entry(named: clip.lastPathComponent))
            #expect(entry.sha256 == hash, "\(clip.lastPathComponent)")
            #expect(entry.captureSource == "quicktime-utc", "\(entry)")
            let stored = try server.sql("SELECT original FROM photo WHERE sha256 = '\(hash)'")
            #expect(try Fixtures.sha256sum(server.data.appending(stored)) == hash, "\(clip.lastPathComponent)")
            #expect(try server.sql("SELECT thumbnail_500 != '' FROM photo WHERE sha256 = '\(hash)'") == "1")
        }
        #expect(run.entry(named: "VID_1.mp4")?.captureTime == "2024-05-04T13:16:17Z")
        #expect(run.entry(named: "VID_2.mp4")?.captureTime == "2024-05-04T13:20:00Z")
        // Nothing was unpacked: no temporary file, and no file beside the zips.
        #expect(TestEnvironment.files(under: scratch).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parts.path).count == 2)
        let again = try cli.ingest([parts], options, environment: environment)
        #expect(again.summary?.event?.unchanged == 3)
        #expect(again.summary?.event?.bytes == 0)

        // Into the archive: each original whole, with its thumbnails, as from the unpacked files.
        let archived = CommandLine("zip-videos-archive")
        let fromZips = try archived.ingest([parts], ["--timezone", "UTC"])
        #expect(fromZips.count("uploaded") == 3, "\(fromZips.result.stderr)")
        let fromFolder = try CommandLine("zip-videos-folder").ingest([media], ["--timezone", "UTC"])
        for (clip, hash) in Swift.zip(clips, hashes) {
            let original = archived.archive.appendingPathComponent(
                "originals/\(hash.prefix(2))/\(hash).\(clip.pathExtension)")
            #expect(try Fixtures.sha256sum(original) == hash, "\(clip.lastPathComponent)")
            let thumbnail = try Fixtures.dimensions(
                of: archived.archive.appendingPathComponent("thumbnails/500/\(hash.prefix(2))/\(hash).jpg"))
            #expect(thumbnail.width == 320 && thumbnail.height == 240, "\(clip.lastPathComponent)")
            let zipped = try #require(fromZips.entry(named: clip.lastPathComponent))
            let unzipped = try #require(fromFolder.entry(named: clip.lastPathComponent))
            #expect(zipped.captureTime == unzipped.captureTime && zipped.captureSource == unzipped.captureSource)
        }
    }

    @Test("A video entry damaged in its middle fails with the reason; the zip's other video is stored")
    func damagedVideo() throws {
        let folder = TemporaryFolder("zip-damaged-video")
        let clips = [
            try Fixtures.video(in: folder, name: "A.mp4", creationTime: "2024-05-04T13:16:17Z"),
            try Fixtures.video(in: folder, name: "B.mp4", creationTime: "2024-05-04T13:17:17Z"),
        ]
        let zip = folder.appending("videos.zip")
        try Self.zip(clips.map { ($0.lastPathComponent, $0) }, to: zip, stored: true)
        var bytes = Array(try Data(contentsOf: zip))
        let first = try Data(contentsOf: clips[0]).count
        bytes[30 + 5 + first / 2] ^= 0x55
        try Data(bytes).write(to: zip)
        let run = try CommandLine("zip-damaged-video").ingest([zip], ["--timezone", "UTC"])
        let damaged = try #require(run.entry(named: "A.mp4"))
        #expect(damaged.status == .failed)
        #expect(damaged.error?.contains("cannot read the zip entry: its CRC-32 does not match its content") == true)
        #expect(run.entry(named: "B.mp4")?.status == .uploaded)
    }
}

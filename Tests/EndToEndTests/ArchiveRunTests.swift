import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// The built command over a generated corpus: what lands in the archive, the report, the exit
/// status, and that a second run does no work.
@Suite(.serialized) struct ArchiveRunTests {
    static let corpusFolder = TemporaryFolder("e2e-corpus")
    /// 30 photos of half a megapixel (one of them a byte-identical copy), made once for the suite.
    static let corpus: Result<URL, Error> = Result {
        try Fixtures.corpus(count: 30, seed: 11, megapixels: 0.5, in: corpusFolder)
    }

    struct Manifest {
        var photos: [[String: Any]]
        var duplicates: [[String: Any]]
    }

    func manifest(_ corpus: URL) throws -> Manifest {
        let object = try JSONSerialization.jsonObject(
            with: Data(contentsOf: corpus.appendingPathComponent("manifest.json")))
        let dictionary = object as? [String: Any] ?? [:]
        return Manifest(
            photos: dictionary["photos"] as? [[String: Any]] ?? [],
            duplicates: dictionary["duplicates"] as? [[String: Any]] ?? [])
    }

    @Test func ingestsEveryPhotoOnceWithThumbnailsAndARunAfterItDoesNothing() throws {
        let corpus = try Self.corpus.get()
        let manifest = try self.manifest(corpus)
        try #require(manifest.duplicates.count == 1)
        let cli = CommandLine("archive-run")

        let first = try cli.ingest([corpus], ["--timezone", "UTC"])
        #expect(first.status == 0, "\(first.result.stderr)")
        #expect(first.count("uploaded") == manifest.photos.count)
        #expect(first.count("duplicate") == 1)
        #expect(first.count("skipped") == 1)  // manifest.json
        #expect(first.count("failed") == 0)
        #expect(first.entries.count == manifest.photos.count + 2)
        #expect(first.result.stdout.contains("\"summary\":\"\(manifest.photos.count) Stored, 1 Duplicates\""))

        // Of a photo and its byte-identical copy, exactly one is stored; which one depends on which is read first.
        let copied = Set(manifest.duplicates.compactMap { $0["duplicateOf"] as? String })
        for duplicate in manifest.duplicates {
            let pair = [duplicate["name"] as! String, duplicate["duplicateOf"] as! String]
            let statuses = pair.compactMap { first.entry(named: $0)?.status.rawValue }.sorted()
            #expect(statuses == ["duplicate", "uploaded"])
        }
        // Every original is in the archive under its SHA-256, byte for byte, with both thumbnails.
        for photo in manifest.photos {
            let name = photo["name"] as! String
            let file = corpus.appendingPathComponent(name)
            let hex = try Fixtures.sha256sum(file)
            let entry = try #require(first.entry(named: name))
            #expect(entry.sha256 == hex)
            if !copied.contains(name) { #expect(entry.status == .uploaded) }
            let stored = cli.archive.appendingPathComponent("originals/\(hex.prefix(2))/\(hex).jpg")
            #expect(try Data(contentsOf: stored) == Data(contentsOf: file))
            let large = try Fixtures.dimensions(
                of: cli.archive.appendingPathComponent("thumbnails/500/\(hex.prefix(2))/\(hex).jpg"))
            let small = try Fixtures.dimensions(
                of: cli.archive.appendingPathComponent("thumbnails/200/\(hex.prefix(2))/\(hex).jpg"))
            #expect(max(large.width, large.height) == 500)
            #expect(max(small.width, small.height) == 200)
            // Orientation 6 and 8 turn the landscape sensor image upright.
            let rotated = [6, 8].contains(photo["orientation"] as? Int ?? 1)
            let sensorPortrait = (photo["height"] as! Int) > (photo["width"] as! Int)
            #expect((large.height > large.width) == (rotated != sensorPortrait), "\(name)")
        }
        let originals = TestEnvironment.files(under: cli.archive.appendingPathComponent("originals"))
        #expect(originals.count == manifest.photos.count)

        let second = try cli.ingest([corpus], ["--timezone", "UTC"])
        #expect(second.status == 0)
        #expect(second.count("uploaded") == 0)
        #expect(second.summary?.event?.unchanged == manifest.photos.count + 2)
        #expect(second.stages["read"] == nil, "the second run read files: \(second.stages)")
        #expect(second.result.stdout.contains("No photos stored"))

        // A touched file is read again; the archive already holds its bytes.
        let touched = corpus.appendingPathComponent("IMG_0003.jpg")
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: touched.path)
        let third = try cli.ingest([corpus], ["--timezone", "UTC"])
        #expect(third.count("duplicate") == 1)
        #expect(third.stages["read"]?.count == 1)
    }

    @Test("Each photo's capture time and source follow from the EXIF make-corpus wrote")
    func captureTimesFollowTheEXIF() throws {
        let corpus = try Self.corpus.get()
        let manifest = try self.manifest(corpus)
        let run = try CommandLine("capture").ingest([corpus], ["--dry-run", "--timezone", "America/Los_Angeles"])
        #expect(run.status == 0)
        var sources: Set<String> = []
        for photo in manifest.photos {
            let entry = try #require(run.entry(named: photo["name"] as! String))
            let source = entry.captureSource
            sources.insert(source ?? "none")
            guard let wall = photo["dateTimeOriginal"] as? String else {
                #expect(source == "file-mtime")
                continue
            }
            let subSec = (photo["subSecTimeOriginal"] as? String).map { "." + $0 } ?? ""
            let local = wall.prefix(10).replacingOccurrences(of: ":", with: "-") + "T" + wall.suffix(8) + subSec
            #expect(entry.localTime == (subSec.isEmpty ? local : local))
            let offset: String
            if let written = photo["offsetTimeOriginal"] as? String {
                #expect(source == "exif-offset")
                offset = written
            } else if let gps = photo["gps"] as? [String: Any] {
                #expect(source == "exif-gps-offset")
                offset = gps["impliedOffset"] as! String
            } else {
                #expect(source == "exif-assumed-zone")
                offset = "-07:00"  // Los Angeles in late September
            }
            let expected = RFC3339.parse(local + offset).map(RFC3339.format)
            #expect(entry.captureTime == expected, "\(photo["name"]!)")
            #expect(entry.offset == offset)
        }
        #expect(sources.isSuperset(of: ["exif-offset", "exif-assumed-zone"]))
    }

    @Test func aDryRunWritesNothing() throws {
        let corpus = try Self.corpus.get()
        let cli = CommandLine("dry")
        let run = try cli.ingest([corpus], ["--dry-run"])
        #expect(run.status == 0)
        #expect(run.count("uploaded") > 0)
        #expect(run.result.stderr.contains("Dry run") || run.result.stdout.contains("Dry run"))
        #expect(TestEnvironment.files(under: cli.archive.appendingPathComponent("originals")).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cli.catalog.path))
    }

    @Test(
        "Bytes changed under an unchanged stamp: a later event's run reads the file before placing it, and stores what it holds now"
    )
    func staleFactsAreReadAgain() throws {
        let photos = TemporaryFolder("stale-facts")
        let photo = try Fixtures.jpeg(
            in: photos, name: "toast.jpg",
            tags: [
                "EXIF:DateTimeOriginal": "2025:09:27 20:30:00", "EXIF:OffsetTimeOriginal": "+00:00", "Comment": "AAAA",
            ])
        let cli = CommandLine("stale-facts")
        // The first event's window is elsewhere: the catalog learns the file's hash and time only.
        let early = try cli.ingest([photos.url], ["--event", "Early", "--from", "2025-01-01", "--until", "2025-01-02"])
        #expect(early.status == 0, "\(early.result.stderr)")
        #expect(early.count("outside") == 1)
        let learned = try #require(early.entry(named: "toast.jpg")?.sha256)

        // Other bytes of the same size, the mtime put back to the nanosecond: the same stamp.
        var before = stat()
        stat(photo.path, &before)
        var bytes = try Data(contentsOf: photo)
        let comment = try #require(bytes.range(of: Data("AAAA".utf8)))
        bytes.replaceSubrange(comment, with: Data("BBBB".utf8))
        let handle = try FileHandle(forWritingTo: photo)
        try handle.write(contentsOf: bytes)
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, photo.path, &times, 0) == 0)
        let now = try Fixtures.sha256sum(photo)
        #expect(now != learned)

        let party = try cli.ingest([photos.url], ["--event", "Party", "--from", "2025-09-27", "--until", "2025-09-27"])
        #expect(party.status == 0, "\(party.result.stderr)")
        #expect(party.entry(named: "toast.jpg")?.status == .uploaded)
        #expect(party.entry(named: "toast.jpg")?.sha256 == now)
        let stored = cli.archive.appendingPathComponent("originals/\(now.prefix(2))/\(now).jpg")
        #expect(try Data(contentsOf: stored) == bytes)
    }

    @Test("A run killed mid-way (kill -9) leaves a catalog the next run finishes from")
    func resumesAfterAKill() throws {
        let corpus = try Self.corpus.get()
        let manifest = try self.manifest(corpus)
        let cli = CommandLine("kill")
        let (process, _) = try cli.startAndWaitForOriginals(corpus, 3)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let resumed = try cli.ingest([corpus])
        #expect(resumed.status == 0, "\(resumed.result.stderr)")
        #expect(resumed.count("failed") == 0)
        let stored = TestEnvironment.files(under: cli.archive.appendingPathComponent("originals"))
        #expect(stored.count == manifest.photos.count)
        // Nothing half-written stands under a real name: every original hashes to its name.
        for url in stored {
            #expect(try Fixtures.sha256sum(url) == url.deletingPathExtension().lastPathComponent)
        }
        let integrity = try runProgram("sqlite3", [cli.catalog.path, "PRAGMA integrity_check"])
        #expect(integrity.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
    }

    @Test("Ctrl-C lets the files in flight finish, commits, exits 130; the next run does the rest")
    func interruptIsClean() throws {
        let corpus = try Self.corpus.get()
        let manifest = try self.manifest(corpus)
        let cli = CommandLine("interrupt")
        let (process, output) = try cli.startAndWaitForOriginals(corpus, 3)
        let originals = cli.archive.appendingPathComponent("originals")
        kill(process.processIdentifier, SIGINT)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(text)")
        #expect(text.contains("Stopping after the files in flight"))
        #expect(text.contains("Stopped before the end"))
        let stoppedAt = TestEnvironment.files(under: originals).count
        #expect(stoppedAt < manifest.photos.count)

        // What the stopped run stored, it recorded: the next run does not store it again.
        let resumed = try cli.ingest([corpus])
        #expect(resumed.status == 0)
        #expect(resumed.entries.count == manifest.photos.count + manifest.duplicates.count + 1)
        #expect(resumed.count("failed") == 0)
        #expect(resumed.count("uploaded") == manifest.photos.count - stoppedAt)
        #expect(TestEnvironment.files(under: originals).count == manifest.photos.count)
    }
}

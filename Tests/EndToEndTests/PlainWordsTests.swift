import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// Messages that say what is wrong and what to do, times that mean what they say, and a summary
/// that says what happened: each seen misleading once, each through the built binary.
@Suite struct PlainWordsTests {
    @Test(
        "Usage mistakes are named as what they are",
        arguments: [
            (["run", ".", "--jobs", "-1"], "--jobs must be at least 1"),
            (["run", ".", "--timezone", "PST"], "'PST' is an abbreviation"),
            (["run", ".", "--timezone", "UTC+2"], "an offset such as +02:00"),
            (["run", ".", "--timezone", "+25:00"], "not an offset ±HH:MM"),
            (["run", ".", "--until", "28.09.2025"], "or a date"),
        ])
    func usageMistakes(arguments: [String], message: String) throws {
        let result = try CommandLine("usage-words").run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("Unusable places for the archive and the catalog are named for what they are, and left alone")
    func unusablePlaces() throws {
        var cli = CommandLine("places")
        cli.launcher = HostileInputTests.withoutRootsOverride
        let photos = TemporaryFolder("places-photos")
        _ = try Fixtures.jpeg(in: photos)

        let file = cli.folder.appending("not-a-folder")
        try Data("x".utf8).write(to: file)
        let archiveIsFile = try cli.run(["run", photos.path, "--archive", file.path, "--catalog", cli.catalog.path])
        #expect(archiveIsFile.status == 2)
        #expect(
            archiveIsFile.stderr.contains("the archive \(file.path) is a file, not a folder"), "\(archiveIsFile.stderr)"
        )
        #expect(!archiveIsFile.stderr.contains("NSCocoaErrorDomain"))

        let locked = cli.folder.appending("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        chmod(locked.path, 0o555)
        defer { chmod(locked.path, 0o755) }
        let readOnly = try cli.run([
            "run", photos.path, "--archive", cli.archive.path, "--catalog", locked.path + "/catalog.sqlite",
        ])
        #expect(readOnly.status == 2)
        #expect(
            readOnly.stderr.contains(
                "cannot create the catalog \(locked.path)/catalog.sqlite: the folder \(locked.path) is not writable"),
            "\(readOnly.stderr)")
        #expect(!readOnly.stderr.contains("move it aside"))

        #expect(try cli.ingest([photos.url]).status == 0)
        let index = cli.archive.appendingPathComponent("index.sqlite")
        let before = try Data(contentsOf: index)
        let indexAsCatalog = try cli.run(["run", photos.path, "--archive", cli.archive.path, "--catalog", index.path])
        #expect(indexAsCatalog.status == 2)
        #expect(
            indexAsCatalog.stderr.contains("is not a photoingest catalog but an archive's index"),
            "\(indexAsCatalog.stderr)")
        #expect(try Data(contentsOf: index) == before)
    }

    @Test("The same folder given twice is walked once, and said so")
    func sameFolderTwice() throws {
        let cli = CommandLine("twice")
        let photos = TemporaryFolder("twice-photos")
        _ = try Fixtures.jpeg(in: photos, name: "a.jpg")
        _ = try Fixtures.jpeg(in: photos, name: "b.jpg")
        let run = try cli.ingest([photos.url, photos.url.appendingPathComponent(".")])
        #expect(run.status == 0)
        #expect(run.entries.count == 2)
        #expect(run.count("uploaded") == 2)
        #expect(run.result.stderr.contains("walked once"))
        #expect(!run.result.stderr.contains("symbolic link loop"))
    }

    @Test("A date alone in --from/--until is the whole day in UTC; --tz is --timezone; offsets are zones")
    func timesMeanWhatTheySay() throws {
        let cli = CommandLine("dates")
        let photos = TemporaryFolder("dates-photos")
        _ = try Fixtures.jpeg(
            in: photos, name: "afternoon.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:28 15:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try Fixtures.jpeg(
            in: photos, name: "last-second.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:28 23:59:59", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try Fixtures.jpeg(
            in: photos, name: "next-day.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:29 00:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try Fixtures.jpeg(in: photos, name: "no-offset.jpg", tags: ["EXIF:DateTimeOriginal": "2025:09:28 12:00:00"])
        let run = try cli.ingest([photos.url], ["--from", "2025-09-28", "--until", "2025-09-28", "--tz", "+02:00"])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.entry(named: "afternoon.jpg")?.status == .uploaded)
        #expect(run.entry(named: "last-second.jpg")?.status == .uploaded)
        #expect(run.entry(named: "next-day.jpg")?.status == .outside)
        // Read at +02:00: noon there is 10:00 UTC.
        #expect(run.entry(named: "no-offset.jpg")?.captureTime == "2025-09-28T10:00:00Z")
        #expect(
            run.result.stderr.contains("Event \"default\", taken 2025-09-28T00:00:00Z to 2025-09-28T23:59:59.999Z"),
            "\(run.result.stderr)")
    }

    @Test("--timezone UTC is shown and recorded as UTC, not GMT or Etc/UTC")
    func utcIsCalledUTC() throws {
        let cli = CommandLine("utc")
        let photos = TemporaryFolder("utc-photos")
        _ = try Fixtures.jpeg(in: photos, name: "no-offset.jpg", tags: ["EXIF:DateTimeOriginal": "2025:09:28 12:00:00"])
        let run = try cli.ingest([photos.url], ["--timezone", "UTC"])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.result.stderr.contains("Time zone for EXIF times without an offset: UTC\n"), "\(run.result.stderr)")
        #expect(run.summary?.timeZone == "UTC")
        #expect(run.entry(named: "no-offset.jpg")?.assumedZone == "UTC")
        #expect(run.entry(named: "no-offset.jpg")?.captureTime == "2025-09-28T12:00:00Z")
    }

    @Test("A TZ naming no zone is warned about; files dated by their mtime are counted in the summary")
    func quietTrapsAreSaid() throws {
        let cli = CommandLine("traps")
        let photos = TemporaryFolder("traps-photos")
        _ = try Fixtures.jpeg(in: photos, name: "undated.jpg")
        _ = try Fixtures.jpeg(
            in: photos, name: "dated.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:28 12:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        let run = try cli.run(
            ["run", photos.path, "--archive", cli.archive.path, "--catalog", cli.catalog.path],
            environment: ["TZ": "Mars/Olympus_Mons"])
        #expect(run.status == 0)
        #expect(
            run.stderr.contains("warning: TZ='Mars/Olympus_Mons' names no time zone this machine knows"),
            "\(run.stderr)")
        #expect(run.stdout.contains("1 dated by file time, not by the camera"), "\(run.stdout)")
        let valid = try CommandLine("traps-valid").run(
            ["run", photos.path, "--dry-run"], environment: ["TZ": "Europe/Berlin"])
        #expect(!valid.stderr.contains("warning"))
    }

    @Test(
        "A dry run creates nothing and says what it would do; --quiet prints nothing when all is well; the archive says Stored"
    )
    func smallerTruths() throws {
        let cli = CommandLine("dry")
        let photos = TemporaryFolder("dry-photos")
        _ = try Fixtures.jpeg(in: photos)
        let dry = try cli.run([
            "run", photos.path, "--archive", cli.archive.path, "--catalog", cli.catalog.path, "--dry-run",
        ])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("Dry run, nothing written: 1 Would store"), "\(dry.stdout)")
        #expect(!FileManager.default.fileExists(atPath: cli.archive.path), "a dry run made the archive")
        #expect(
            !FileManager.default.fileExists(atPath: cli.catalog.deletingLastPathComponent().path),
            "a dry run made the catalog's folder")

        let quiet = try cli.run([
            "run", photos.path, "--archive", cli.archive.path, "--catalog", cli.catalog.path, "--quiet",
        ])
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")

        let again = try cli.run([
            "run", photos.path, "--archive", cli.archive.path, "--catalog", cli.catalog.path, "--retry-failed",
        ])
        #expect(again.stdout.hasSuffix("No photos stored\n"), "\(again.stdout)")
    }

    @Test("Against a server: --event takes a unique name as well as an id; `events --json` lists the events")
    func serverEventsByName() throws {
        let server = try ReferenceServer()
        let party = try server.addEvent(
            name: "Birthday Party", start: "2025-09-27T00:00:00Z", end: "2025-09-29T00:00:00Z")
        _ = try server.addEvent(name: "Picnic", start: "2025-07-01T00:00:00Z", end: "2025-07-02T00:00:00Z")
        _ = try server.addEvent(name: "Picnic", start: "2025-08-01T00:00:00Z", end: "2025-08-02T00:00:00Z")
        let cli = CommandLine("event-name")
        let photos = TemporaryFolder("event-name-photos")
        _ = try Fixtures.jpeg(
            in: photos, tags: ["EXIF:DateTimeOriginal": "2025:09:28 12:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        let token = ["PHOTOINGEST_TOKEN": try server.token()]

        let run = try cli.ingest(
            [photos.url], ["--server", server.url, "--event", "Birthday Party"], environment: token)
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.count("uploaded") == 1)
        #expect(run.summary?.event?.summary == "1 Uploaded")
        #expect(try server.held(inEvent: party).count == 1)

        let ambiguous = try cli.ingest([photos.url], ["--server", server.url, "--event", "Picnic"], environment: token)
        #expect(ambiguous.status == 2)
        #expect(
            ambiguous.result.stderr.contains("2 events are named Picnic: give one's id"), "\(ambiguous.result.stderr)")

        let listed = try cli.run(["events", "--server", server.url, "--json"], environment: token)
        #expect(listed.status == 0)
        let events = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(events.count == 3)
        let birthday = try #require(events.first { $0["id"] as? String == party })
        #expect(birthday["name"] as? String == "Birthday Party")
        #expect(
            birthday["start"] as? String == "2025-09-27T00:00:00Z"
                && birthday["end"] as? String == "2025-09-29T00:00:00Z")
    }
}

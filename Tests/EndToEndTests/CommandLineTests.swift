import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

@Suite struct CommandLineTests {
    @Test func helpExplainsWithExamples() throws {
        let cli = CommandLine("help")
        let help = try cli.run(["run", "--help"])
        #expect(help.status == 0)
        for text in [
            "--archive", "--event", "--from", "--until", "--jobs", "--catalog", "--timezone", "--dry-run",
            "--report", "--json", "--quiet", "--include-hidden", "Examples:", "Exit status",
        ] {
            #expect(help.stdout.contains(text), "help lacks \(text)")
        }
        let top = try cli.run(["--help"])
        #expect(top.status == 0)
        #expect(top.stdout.contains("run"))
    }

    @Test("On an 80-column terminal every example reads and pastes as a command: no option cut from its value")
    func examplesFitEightyColumns() throws {
        let cli = CommandLine("help-width")
        for command in [["run", "--help"], ["events", "--help"], ["verify", "--help"]] {
            let help = try cli.run(command, environment: ["COLUMNS": "80"])
            let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            let start = try #require(lines.firstIndex(of: "Examples:"), "\(help.stdout)")
            let examples = lines[(start + 1)...].prefix { !$0.isEmpty }
            #expect(examples.count >= 2)
            var continued = false
            for line in examples {
                #expect(line.count <= 80, "too wide: \(line)")
                // A line is a new command, or a continuation of one that ended with a backslash.
                let isCommand =
                    line.hasPrefix("  photoingest ") || line.hasPrefix("  PHOTOINGEST_") || line.hasPrefix("  export ")
                #expect(continued ? line.hasPrefix("      -") : isCommand, "not a command line: \(line)")
                continued = line.hasSuffix("\\")
            }
            #expect(!continued)
        }
        let help = try cli.run(["run", "--help"], environment: ["COLUMNS": "80"])
        #expect(help.stdout.contains("--timezone America/Los_Angeles"))
    }

    @Test(
        "Usage and configuration errors exit 2 with a message that says what to fix",
        arguments: [
            (["run", "/no/such/folder"], "no such file or folder"),
            (["run", ".", "--from", "yesterday"], "RFC 3339"),
            (["run", ".", "--from", "2025-09-28T00:00:00Z", "--until", "2025-09-27T00:00:00Z"], "after --until"),
            (["run", ".", "--timezone", "Mars/Olympus"], "IANA"),
            (["run", ".", "--jobs", "0"], "--jobs"),
            (["run", ".", "--max-duration", "soon"], "--max-duration"),
            (["run"], "Give at least one file or folder to ingest"),
            (["run", ".", "--no-such-option"], "Unknown option"),
            (["watch", ".", "--poll", "--no-poll"], "--poll and --no-poll contradict each other: give one."),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try CommandLine("usage").run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("--fast-thumbnails, or fast-thumbnails in the config file, makes the archive's thumbnails the fast way")
    func fastThumbnailsReachTheThumbnailer() throws {
        let folder = TemporaryFolder("fast-thumbnails-photo")
        // A real 4608x3456 camera photo: decoded at 1/8 with the option, at 1/4 without.
        let photo = TestEnvironment.realCorpus.appendingPathComponent("jpeg/Kodak PIXPRO FZ201.jpg")
        try FileManager.default.copyItem(at: photo, to: folder.appending("photo.jpg"))
        func thumbnail(_ cli: CommandLine) throws -> Data {
            let files = TestEnvironment.files(under: cli.archive.appendingPathComponent("thumbnails/500"))
            return try Data(contentsOf: try #require(files.first))
        }
        let usual = CommandLine("fast-thumbnails-default")
        #expect(try usual.ingest([folder.url], ["--timezone", "UTC"]).status == 0)
        let flag = CommandLine("fast-thumbnails-flag")
        #expect(try flag.ingest([folder.url], ["--timezone", "UTC", "--fast-thumbnails"]).status == 0)
        let configured = CommandLine("fast-thumbnails-config")
        let config = configured.folder.appending("config/photoingest/config.yaml")
        try FileManager.default.createDirectory(
            at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("fast-thumbnails: true\n".utf8).write(to: config)
        #expect(try configured.ingest([folder.url], ["--timezone", "UTC"]).status == 0)

        #expect(try thumbnail(flag) != thumbnail(usual))
        #expect(try thumbnail(configured) == thumbnail(flag))
    }

    @Test("A bare or relative catalog, archive and page path works from any folder (a bare catalog name hung report)")
    func bareAndRelativePaths() throws {
        let cli = CommandLine("bare-paths")
        let work = cli.folder.appending("work")
        let photos = work.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestEnvironment.repository.appendingPathComponent("samples/IMG_0001.jpg"),
            to: photos.appendingPathComponent("IMG_0001.jpg"))
        let environment = ["XDG_CONFIG_HOME": cli.folder.appending("config").path]
        func photoingest(_ arguments: [String], in folder: URL) throws -> ProcessResult {
            try runProgram(
                TestEnvironment.photoingest.path, arguments, environment: environment, currentDirectory: folder,
                timeout: 60)
        }
        let run = try photoingest(
            ["run", "photos", "--archive", "archive", "--catalog", "cat.sqlite", "--timezone", "UTC", "--quiet"],
            in: work)
        #expect(run.status == 0 && !run.timedOut, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("cat.sqlite").path))
        let report = try photoingest(["report", "cat.sqlite", "--html", "page.html"], in: work)
        #expect(!report.timedOut, "photoingest report with a bare catalog name did not end")
        #expect(report.status == 0, "\(report.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("page.html").path))
        let fromBelow = try photoingest(["report", "../cat.sqlite", "--html", "../again.html"], in: photos)
        #expect(!fromBelow.timedOut && fromBelow.status == 0, "\(fromBelow.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("again.html").path))
    }

    @Test("The IANA nautical zones are zones: --timezone Etc/GMT+7 reads times at UTC-07:00")
    func nauticalZones() throws {
        let cli = CommandLine("nautical-zone")
        // IMG_0004 has a wall time and no offset: it is read in the zone given.
        let run = try cli.ingest(
            [TestEnvironment.repository.appendingPathComponent("samples/IMG_0004.jpg")], ["--timezone", "Etc/GMT+7"])
        #expect(run.status == 0, "\(run.result.stderr)")
        let entry = try #require(run.entry(named: "IMG_0004.jpg"))
        #expect(entry.captureSource == "exif-assumed-zone")
        #expect(entry.offset == "-07:00" && entry.assumedZone == "Etc/GMT+7")
        #expect(entry.captureTime == "2025-09-28T01:03:09Z")
    }

    @Test("A western offset is a --timezone value, not another option: --timezone -07:00 and --tz -07:00")
    func westernOffsets() throws {
        let cli = CommandLine("western-offset")
        for flag in ["--timezone", "--tz"] {
            let run = try cli.run([
                "run", TestEnvironment.repository.appendingPathComponent("samples/IMG_0001.jpg").path, "--archive",
                cli.archive.path, "--catalog", cli.catalog.path, flag, "-07:00", "--dry-run",
            ])
            #expect(run.status == 0, "\(flag): \(run.stderr)")
            #expect(run.stderr.contains("without an offset") && run.stderr.contains("GMT-0700"), "\(run.stderr)")
        }
    }

    @Test("A misspelt PHOTOINGEST_ variable is warned about with the setting it meant, not silently ignored")
    func misspeltVariables() throws {
        let cli = CommandLine("misspelt-variable")
        let run = try cli.run(
            [
                "run", TestEnvironment.repository.appendingPathComponent("samples/IMG_0001.jpg").path, "--archive",
                cli.archive.path, "--catalog", cli.catalog.path, "--timezone", "UTC", "--dry-run", "--quiet",
            ], environment: ["PHOTOINGEST_NEAREDGE": "5"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "warning: PHOTOINGEST_NEAREDGE is no setting's variable (did you mean PHOTOINGEST_NEAR_EDGE?)"),
            "\(run.stderr)")
    }

    @Test("Failures point to --report FILE when no report is written, to the report file when one is")
    func failuresPointToTheReport() throws {
        let cli = CommandLine("failures-report")
        let photos = try cli.folderWithACutPhoto("photos")
        let arguments = ["run", photos.path, "--archive", cli.archive.path, "--catalog", cli.catalog.path]
        let without = try cli.run(arguments + ["--timezone", "UTC"])
        let said = without.stdout + without.stderr
        #expect(without.status == 1)
        #expect(said.contains("Failed: 1 (--report FILE lists every one)"), "\(said)")
        #expect(!said.contains("the --report file"))
        let with = try cli.run(
            arguments + ["--timezone", "UTC", "--retry-failed", "--report", cli.folder.appending("r.ndjson").path])
        #expect((with.stdout + with.stderr).contains("Failed: 1 (the --report file lists every one)"))
    }

    @Test("A misspelt command is answered with the one it likely meant")
    func misspeltCommand() throws {
        let cli = CommandLine("misspelt-command")
        let result = try cli.run(["rnu", "."])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'rnu' is no command; did you mean 'run'?"), "\(result.stderr)")
        // A word far from every command gets ArgumentParser's own answer.
        #expect(!(try cli.run(["upload", "."])).stderr.contains("did you mean"))
    }

    @Test func anUnusableCatalogIsRefusedWithExit2AndLeftAlone() throws {
        let cli = CommandLine("bad-catalog")
        let photos = cli.folder.appending("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: cli.catalog.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data(String(repeating: "not sqlite ", count: 1_000).utf8)
        try garbage.write(to: cli.catalog)
        let result = try cli.ingest([photos])
        #expect(result.status == 2)
        #expect(result.result.stderr.contains("catalog"))
        #expect(try Data(contentsOf: cli.catalog) == garbage)
    }

    @Test("The production regression: event times without a zone are UTC, and the photo's offset counts")
    func eventWindowInUTC() throws {
        let cli = CommandLine("window")
        let photos = TemporaryFolder("window-photos")
        _ = try Fixtures.jpeg(
            in: photos, name: "inside.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 21:39:00", "EXIF:OffsetTimeOriginal": "-07:00"])
        _ = try Fixtures.jpeg(
            in: photos, name: "before.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 20:59:59", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try Fixtures.jpeg(
            in: photos, name: "edge.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:28 05:00:00"])
        let run = try cli.ingest(
            [photos.url],
            [
                "--event", "Birthday Party", "--from", "2025-09-27T21:00:00", "--until", "2025-09-28T05:00:00",
                "--timezone", "UTC",
            ])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.entry(named: "inside.jpg")?.status == .uploaded)
        #expect(run.entry(named: "inside.jpg")?.captureTime == "2025-09-28T04:39:00Z")
        #expect(run.entry(named: "before.jpg")?.status == .outside)
        // No offset in the file: the zone given on the command line decides; the window's end is included.
        #expect(run.entry(named: "edge.jpg")?.status == .uploaded)
        #expect(run.entry(named: "edge.jpg")?.captureSource == "exif-assumed-zone")
        #expect(run.summary?.event?.summary == "2 Stored, 1 Outside event dates")
        // UTC is called UTC, never "GMT".
        #expect(run.summary?.timeZone == "UTC")
        #expect(run.result.stderr.contains("without an offset: UTC"), "\(run.result.stderr)")
        // The photo just outside is listed for a second look, in the report and at the end of the
        // run; the one at the end is not: its zone was given with --timezone, not guessed.
        #expect(run.entry(named: "before.jpg")?.nearEdge == "outside the window by 1 min")
        #expect(run.entry(named: "edge.jpg")?.nearEdge == nil)
        #expect(run.entry(named: "inside.jpg")?.nearEdge == nil)
        #expect(run.summary?.event?.nearEdge == 1)
        #expect(run.result.stderr.contains("Near the window's edges, check their time zone: 1"))
    }

    @Test(
        "With the process's own TZ far from UTC, window times without a zone are still UTC; that TZ is only the assumed zone"
    )
    func windowIsUTCWhateverTheProcessZone() throws {
        let cli = CommandLine("window-tz")
        let photos = TemporaryFolder("window-tz-photos")
        _ = try Fixtures.jpeg(
            in: photos, name: "before.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 20:59:59", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try Fixtures.jpeg(in: photos, name: "edge.jpg", tags: ["EXIF:DateTimeOriginal": "2025:09:28 05:00:00"])
        // Read in Auckland's time, 21:00 would be 09:00Z, and before.jpg (20:59:59Z) would fall inside.
        let run = try cli.ingest(
            [photos.url], ["--from", "2025-09-27T21:00:00", "--until", "2025-09-28T05:00:00"],
            environment: ["TZ": "Pacific/Auckland"])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.entry(named: "before.jpg")?.status == .outside)
        #expect(run.result.stderr.contains("Pacific/Auckland (this machine's"), "\(run.result.stderr)")
        // No offset in the file: this machine's zone, DST-correct (New Zealand's summer time began at
        // 02:00 that morning, so 05:00 is +13:00).
        #expect(run.entry(named: "edge.jpg")?.captureSource == "exif-assumed-zone")
        #expect(run.entry(named: "edge.jpg")?.captureTime == "2025-09-27T16:00:00Z")
        #expect(run.entry(named: "edge.jpg")?.status == .outside)
    }

    @Test("A --timezone change dates again the photos whose zone was assumed, and opens no other")
    func timezoneChangeRedates() throws {
        let cli = CommandLine("zone-change")
        let photos = TemporaryFolder("zone-change-photos")
        _ = try Fixtures.jpeg(in: photos, name: "no-zone.jpg", tags: ["EXIF:DateTimeOriginal": "2025:09:27 23:30:00"])
        _ = try Fixtures.jpeg(
            in: photos, name: "camera.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 18:00:27", "EXIF:OffsetTimeOriginal": "+09:00"])
        let window = ["--from", "2025-09-27T21:00:00Z", "--until", "2025-09-28T00:00:00Z"]

        let tokyo = try cli.ingest([photos.url], window + ["--timezone", "Asia/Tokyo"])
        #expect(tokyo.status == 0, "\(tokyo.result.stderr)")
        #expect(tokyo.entry(named: "no-zone.jpg")?.captureTime == "2025-09-27T14:30:00Z")
        #expect(tokyo.count("outside") == 2)

        // In UTC the photo without a zone falls inside: read again, dated again, stored. The camera's
        // own offset makes the other outside in any zone: not opened.
        let utc = try cli.ingest([photos.url], window + ["--timezone", "UTC"])
        #expect(utc.status == 0, "\(utc.result.stderr)")
        #expect(utc.entry(named: "no-zone.jpg")?.status == .uploaded)
        #expect(utc.entry(named: "no-zone.jpg")?.captureTime == "2025-09-27T23:30:00Z")
        #expect(utc.entry(named: "camera.jpg")?.reason == "unchanged since an earlier run")
        #expect(utc.stages["read"]?.count == 1)

        let again = try cli.ingest([photos.url], window + ["--timezone", "UTC"])
        #expect(again.summary?.event?.unchanged == 2)
        #expect(again.stages["read"]?.count == nil, "a run with nothing new read \(again.stages)")
    }

    @Test("--events FILE (CSV or JSON) in the archive: every event in one pass, a photo in two windows stored in both")
    func eventsFromAFile() throws {
        let photos = TemporaryFolder("events-file-photos")
        for (name, time) in [
            ("toast.jpg", "2025:09:27 20:30:00"), ("dance.jpg", "2025:09:27 23:30:00"),
            ("morning.jpg", "2025:09:28 09:00:00"),
        ] {
            _ = try Fixtures.jpeg(
                in: photos, name: name, tags: ["EXIF:DateTimeOriginal": time, "EXIF:OffsetTimeOriginal": "+00:00"])
        }
        let csv = photos.appending("events.csv")
        // A name with a comma, quoted; a time without a zone, which is UTC.
        try Data(
            "name,start,end\n\"Party, the big one\",2025-09-27T18:00:00Z,2025-09-28T02:00:00Z\nDinner,2025-09-27T19:00:00,2025-09-27T22:00:00Z\n"
                .utf8
        ).write(to: csv)
        let json = photos.appending("events.json")
        try Data(
            #"[{"name": "Party, the big one", "start": "2025-09-27T18:00:00Z", "end": "2025-09-28T02:00:00Z"}, {"name": "Dinner", "start": "2025-09-27T19:00:00", "end": "2025-09-27T22:00:00Z"}]"#
                .utf8
        ).write(to: json)
        for file in [csv, json] {
            let cli = CommandLine("events-\(file.pathExtension)")
            let run = try cli.ingest([photos.url], ["--events", file.path])
            #expect(run.status == 0, "\(run.result.stderr)")
            let index = cli.archive.appendingPathComponent("index.sqlite").path
            let held = try runProgram(
                "sqlite3",
                [
                    index,
                    "SELECT e.name, ep.filename FROM event e JOIN event_photo ep ON ep.event_id = e.id ORDER BY 1, 2",
                ])
            #expect(
                held.stdout == "Dinner|toast.jpg\nParty, the big one|dance.jpg\nParty, the big one|toast.jpg\n",
                "\(held.stdout)")
            #expect(TestEnvironment.files(under: cli.archive.appendingPathComponent("originals")).count == 2)
            #expect(run.summary?.outsideAllEvents == 1)
            #expect(
                run.summary?.events.map(\.summary)
                    == ["2 Stored, 1 Outside event dates", "1 Stored, 2 Outside event dates"])
        }

        let twice = photos.appending("twice.csv")
        try Data("name,start,end\nA,,\nA,,\n".utf8).write(to: twice)
        let refused = try CommandLine("events-bad").run(["run", photos.path, "--events", twice.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("the name 'A' is used twice"), "\(refused.stderr)")
        let mixed = try CommandLine("events-mixed").run([
            "run", photos.path, "--events", csv.path, "--from", "2025-09-27T00:00:00Z",
        ])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("names every event with its window: drop --from."), "\(mixed.stderr)")
    }

    @Test("--shard K/N: N runs, each with its own catalog, take every file exactly once")
    func shardedRunsPartitionTheFiles() throws {
        let corpus = TestEnvironment.realCorpus.appendingPathComponent("jpeg")
        let all = TestEnvironment.files(under: corpus).map(\.path)
        var seen: [String] = []
        for index in 0..<3 {
            let cli = CommandLine("shard-\(index)")
            let run = try cli.ingest([corpus], ["--dry-run", "--shard", "\(index)/3"])
            #expect(run.status == 0)
            // Which shard it was, and that this catalog's name cannot name the others'.
            #expect(run.summary?.shard?.index == index && run.summary?.shard?.count == 3)
            #expect(run.summary?.shard?.catalog == cli.catalog.path && run.summary?.shard?.catalogs == nil)
            seen += run.entries.map(\.path)
        }
        #expect(seen.sorted() == all.sorted())
        let bad = try CommandLine("shard-bad").run(["run", corpus.path, "--shard", "3/3"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("K/N"))
    }
}

import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// What a new user tripped over, each through the built binary: a nightly run that failed for
/// nothing, words that said something else than what happened, and times read otherwise than
/// the user meant.
@Suite struct FirstUseTests {
    /// A photo taken at `time` (EXIF, no offset unless given).
    static func photo(_ folder: TemporaryFolder, _ name: String, _ time: String, offset: String? = nil) throws {
        var tags = ["EXIF:DateTimeOriginal": time]
        if let offset { tags["EXIF:OffsetTimeOriginal"] = offset }
        _ = try Fixtures.jpeg(in: folder, name: name, tags: tags)
    }

    /// The `status` words of a report's lines, as written.
    static func statusWords(_ run: Ingest) -> Set<String> {
        Set(
            run.reportLines.compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["status"] as? String
            })
    }

    @Test("The archive stores and a server uploads: the report, --json and the summary say which")
    func storedAndUploaded() throws {
        let photos = TemporaryFolder("words-photos")
        try Self.photo(photos, "a.jpg", "2025:09:28 12:00:00", offset: "+00:00")
        let archive = try CommandLine("words-archive").ingest([photos.url])
        #expect(archive.status == 0, "\(archive.result.stderr)")
        #expect(Self.statusWords(archive) == ["stored"])
        #expect(archive.result.stdout.contains(#""stored":1"#), "\(archive.result.stdout)")
        #expect(!archive.result.stdout.contains(#""uploaded""#), "\(archive.result.stdout)")

        let server = try ReferenceServer()
        _ = try server.addEvent(name: "Party", start: "2025-09-28T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let uploaded = try CommandLine("words-server").ingest(
            [photos.url], ["--server", server.url], environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(uploaded.status == 0, "\(uploaded.result.stderr)")
        #expect(Self.statusWords(uploaded) == ["uploaded"])
        #expect(uploaded.result.stdout.contains(#""uploaded":1"#), "\(uploaded.result.stdout)")
    }

    @Test("A message about a value names where it was given; an empty flag clears the file's value")
    func valuesNameTheirOrigin() throws {
        let server = try ReferenceServer()
        _ = try server.addEvent(name: "Party", start: "2025-09-28T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let cli = CommandLine("origins")
        let photos = TemporaryFolder("origins-photos")
        try Self.photo(photos, "a.jpg", "2025:09:28 12:00:00", offset: "+00:00")
        let config = cli.folder.appending("config/photoingest/config.yaml")
        try FileManager.default.createDirectory(
            at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("from: 2025-09-28\nuntil: 2025-09-28\n".utf8).write(to: config)
        let token = ["PHOTOINGEST_TOKEN": try server.token()]

        let refused = try cli.run(["run", photos.path, "--server", server.url], environment: token)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("drop from and until in \(config.path)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("drop --from"), "\(refused.stderr)")

        let cleared = try cli.ingest(
            [photos.url], ["--server", server.url, "--from", "", "--until", ""], environment: token)
        #expect(cleared.status == 0, "\(cleared.result.stderr)")
        #expect(cleared.count("uploaded") == 1)

        let jobs = try cli.run(["run", photos.path], environment: ["PHOTOINGEST_JOBS": "0"])
        #expect(jobs.status == 2)
        #expect(jobs.stderr.contains("PHOTOINGEST_JOBS must be at least 1."), "\(jobs.stderr)")

        // A token the server refuses is said to come from where it came from.
        let refusedToken = try cli.run(
            ["run", photos.path, "--server", server.url, "--from", "", "--until", ""],
            environment: ["PHOTOINGEST_TOKEN": "not-a-token"])
        #expect(refusedToken.status == 3)
        #expect(refusedToken.stderr.contains("check PHOTOINGEST_TOKEN"), "\(refusedToken.stderr)")
        #expect(!refusedToken.stderr.contains("--token"), "\(refusedToken.stderr)")
    }

    @Test("Off a terminal, an error that stops the run is printed once")
    func fatalErrorOnce() throws {
        let cli = CommandLine("fatal-once")
        let photos = TemporaryFolder("fatal-once-photos")
        _ = try Fixtures.jpeg(in: photos)
        let file = cli.folder.appending("not-a-folder")
        try Data("x".utf8).write(to: file)
        let run = try cli.run(["run", photos.path, "--archive", file.path, "--catalog", cli.catalog.path])
        #expect(run.status == 2)
        #expect(run.stderr.components(separatedBy: "is a file, not a folder").count == 2, "\(run.stderr)")
        #expect(run.stderr.contains("photoingest: error: "), "\(run.stderr)")
    }

    @Test("A dry run decodes and thumbnails: it fails what the real run fails")
    func dryRunPlansExactly() throws {
        let cli = CommandLine("dry-exact")
        let photos = TemporaryFolder("dry-exact-photos")
        _ = try Fixtures.jpeg(in: photos, name: "whole.jpg")
        try FileManager.default.copyItem(
            at: try cli.folderWithACutPhoto("cut").appendingPathComponent("cut.jpg"),
            to: photos.url.appendingPathComponent("cut.jpg"))
        let dry = try cli.ingest([photos.url], ["--dry-run"])
        #expect(dry.status == 1, "\(dry.result.stderr)")
        #expect(dry.summary?.event?.closingLine == "Dry run, nothing written: 1 Would store; 1 failed")
        let real = try cli.ingest([photos.url])
        #expect(real.status == 1)
        #expect(real.summary?.event?.closingLine == "1 Stored; 1 failed")
    }

    @Test("Failures of one cause are one group, whatever path each names")
    func failuresGroupByCause() throws {
        var cli = CommandLine("groups")
        cli.launcher = HostileInputTests.withoutRootsOverride
        let first = TemporaryFolder("groups-first")
        try Self.photo(first, "a.jpg", "2025:09:28 12:00:00")
        #expect(try cli.ingest([first.url]).status == 0)
        let more = TemporaryFolder("groups-more")
        for index in 1...3 { try Self.photo(more, "b\(index).jpg", "2025:09:28 12:0\(index):00") }
        // Every file is written under tmp/ first, each under a name of its own.
        let temporary = cli.archive.appendingPathComponent("tmp")
        chmod(temporary.path, 0o555)
        defer { chmod(temporary.path, 0o755) }
        let run = try cli.run(["run", more.path, "--archive", cli.archive.path, "--catalog", cli.catalog.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("Failed: 3"), "\(run.stdout)")
        #expect(run.stdout.contains("  cannot create a file in the archive: 3\n"), "\(run.stdout)")
    }

    @Test("`--report - | head`: the run stops as after Ctrl-C, not by SIGPIPE, and commits what it finished")
    func brokenPipeStopsLikeCtrlC() throws {
        let cli = CommandLine("pipe")
        let corpus = TestEnvironment.realCorpus.appendingPathComponent("jpeg")
        let all = TestEnvironment.files(under: corpus).count
        let process = Process()
        process.executableURL = TestEnvironment.photoingest
        process.arguments = [
            "run", corpus.path, "--archive", cli.archive.path, "--catalog", cli.catalog.path, "--report", "-",
            "--jobs", "1",
        ]
        let output = Pipe()
        let errors = cli.folder.appending("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        // The first line, then the reader goes, as `head -1` does.
        var first = Data()
        while !first.contains(0x0A), let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
            first.append(byte)
        }
        try output.fileHandleForReading.close()
        process.waitUntilExit()
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        #expect(process.terminationReason == .exit, "ended by signal \(process.terminationStatus): \(stderr)")
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("Standard output was closed"), "\(stderr)")
        let recorded = try runProgram("sqlite3", [cli.catalog.path, "SELECT count(*) FROM outcome"])
        let done = Int(recorded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        #expect(done > 0 && done < all, "the catalog holds \(done) of \(all): \(recorded.stderr)")
    }

    @Test("--timezone with a bound that names no offset: how it was read, and the other reading")
    func boundsWithoutOffset() throws {
        let cli = CommandLine("bounds")
        let photos = TemporaryFolder("bounds-photos")
        try Self.photo(photos, "a.jpg", "2025:09:27 22:00:00")
        let page = cli.folder.appending("page.html")
        let run = try cli.ingest(
            [photos.url],
            [
                "--from", "2025-09-27T21:00", "--until", "2025-09-28T05:00", "--timezone", "America/Los_Angeles",
                "--html", page.path,
            ])
        #expect(run.status == 0, "\(run.result.stderr)")
        let said = run.result.stderr
        #expect(
            said.contains(
                "--from 2025-09-27T21:00 names no offset: read as UTC, 2025-09-27T21:00:00Z; in America/Los_Angeles (--timezone) it would be 2025-09-28T04:00:00Z"
            ), "\(said)")
        #expect(said.contains("(2025-09-27T14:00:00 to 2025-09-27T22:00:00 in America/Los_Angeles)"), "\(said)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("2025-09-27T14:00:00 to 2025-09-27T22:00:00 in America/Los_Angeles"))
    }

    @Test("Near the edge: only a guessed zone, only where an hour's difference changes the verdict, by time")
    func nearEdgeOnlyWhereAGuessBites() throws {
        let photos = TemporaryFolder("edge-photos")
        try Self.photo(photos, "late.jpg", "2025:09:28 04:45:00")
        try Self.photo(photos, "middle.jpg", "2025:09:28 01:00:00")
        try Self.photo(photos, "early.jpg", "2025:09:27 21:30:00")
        let window = ["--from", "2025-09-27T21:00:00Z", "--until", "2025-09-28T05:00:00Z", "--jobs", "3"]
        let guessed = try CommandLine("edge-guessed").run(
            ["run", photos.path, "--dry-run"] + window, environment: ["TZ": "UTC"])
        let lines = guessed.stdout.split(separator: "\n").filter { $0.contains("only in the assumed time zone") }
        #expect(lines.count == 2, "\(guessed.stdout)")
        #expect(lines.first?.contains("early.jpg") == true && lines.last?.contains("late.jpg") == true)
        let given = try CommandLine("edge-given").run(["run", photos.path, "--dry-run", "--timezone", "UTC"] + window)
        #expect(!given.stdout.contains("only in the assumed time zone"), "\(given.stdout)")
        let none = try CommandLine("edge-none").run(
            ["run", photos.path, "--dry-run", "--near-edge", "0"] + window, environment: ["TZ": "UTC"])
        #expect(!none.stdout.contains("Near the window's edges"), "\(none.stdout)")
    }

    @Test("The reference server's --end of a date alone is the whole day; a name used twice is warned about")
    func serverEventsTakeTheSameRules() throws {
        let server = try ReferenceServer()
        let add = { (name: String) in
            try runProgram(
                ReferenceServer.executable.path,
                [
                    "event", "add", "--data", server.data.path, "--name", name, "--start", "2004-12-31", "--end",
                    "2004-12-31", "--participant", "alice",
                ])
        }
        #expect(try add("New Year's Eve").status == 0)
        let listed = try server.command(["event", "list", "--data", server.data.path])
        #expect(listed.contains("2004-12-31T00:00:00Z\t2004-12-31T23:59:59.999Z"), "\(listed)")
        let again = try add("New Year's Eve")
        #expect(again.status == 0)
        #expect(again.stderr.contains("warning: an event named New Year's Eve exists already"), "\(again.stderr)")
        let photos = TemporaryFolder("same-name-photos")
        try Self.photo(photos, "a.jpg", "2004:12:31 23:30:00", offset: "+00:00")
        let run = try CommandLine("same-name").run(
            ["run", photos.path, "--server", server.url], environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(run.stderr.contains("warning: 2 events are named New Year's Eve"), "\(run.stderr)")
    }

    @Test("An archive event's new window is said, the index keeps it; `report --list` shows the runs")
    func archiveWindowsAndRunList() throws {
        let cli = CommandLine("windows")
        let photos = TemporaryFolder("windows-photos")
        try Self.photo(photos, "a.jpg", "2025:09:28 12:00:00", offset: "+00:00")
        let first = try cli.ingest([photos.url], ["--event", "Party", "--from", "2025-09-28"])
        #expect(first.status == 0)
        #expect(!first.result.stderr.contains("The archive's event"))
        let second = try cli.ingest([photos.url], ["--event", "Party", "--from", "2025-09-27"])
        #expect(
            second.result.stderr.contains(
                "The archive's event \"Party\" was taken from 2025-09-28T00:00:00Z; this run's window, taken from 2025-09-27T00:00:00Z, replaces it"
            ), "\(second.result.stderr)")
        let index = cli.archive.appendingPathComponent("index.sqlite").path
        let stored = try runProgram("sqlite3", [index, "SELECT start_time FROM event WHERE id = 'Party'"])
        #expect(stored.stdout == "2025-09-27T00:00:00Z\n")

        let list = try cli.run(["report", cli.catalog.path, "--list"])
        #expect(list.status == 0, "\(list.stderr)")
        let rows = list.stdout.split(separator: "\n")
        try #require(rows.count == 3, "\(list.stdout)")
        #expect(rows[1].hasPrefix("1\t") && rows[1].hasSuffix("Party: 1 Stored"), "\(list.stdout)")
        #expect(rows[2].hasPrefix("2\t") && rows[2].contains("archive:\(cli.archive.path)"), "\(list.stdout)")
    }

    @Test("The status line counts uploads on the wire, at most --uploads, apart from those queued")
    func uploadsSendingAndQueued() throws {
        let server = try ReferenceServer(["--latency-ms", "500"])
        _ = try server.addEvent(name: "Party", start: "2025-09-27T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let run = try CommandLine("queued").run(
            [
                "run", TestEnvironment.repository.appendingPathComponent("samples").path, "--server", server.url,
                "--uploads", "2", "--stats", "1s", "--timezone", "America/Los_Angeles",
            ], environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(run.status == 0, "\(run.stderr)")
        let counts = run.stderr.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: #"\d+ uploading, \d+ queued"#, options: .regularExpression) else {
                return nil
            }
            return Int(line[range].prefix { $0.isNumber })
        }
        #expect(!counts.isEmpty, "no status line: \(run.stderr)")
        #expect(counts.allSatisfy { $0 <= 2 }, "\(counts)")
        #expect(!run.stderr.contains("in flight"), "\(run.stderr)")
    }
}

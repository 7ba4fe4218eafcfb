import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// photoingest against the built photoshare-server on loopback, over real HTTP through libcurl.
@Suite(.serialized) struct ServerRunTests {
    static let corpusFolder = TemporaryFolder("server-corpus")
    /// 30 photos (one a byte-identical copy) of a fifth of a megapixel, all taken on 2025-09-27.
    static let corpus: Result<URL, Error> = Result {
        try Fixtures.corpus(count: 30, seed: 21, megapixels: 0.2, in: corpusFolder)
    }
    static let photos = 29

    func ingest(
        _ cli: CommandLine, _ server: ReferenceServer, _ extra: [String] = [], token: String? = nil
    ) throws -> Ingest {
        let environment = try token.map { ["PHOTOINGEST_TOKEN": $0] } ?? ["PHOTOINGEST_TOKEN": server.token()]
        return try cli.ingest(
            [try Self.corpus.get()], ["--server", server.url, "--timezone", "UTC"] + extra, environment: environment)
    }

    @Test("A fresh upload stores every photo once with thumbnails; the next runs upload nothing")
    func uploadsOnceThenNothing() throws {
        let server = try ReferenceServer()
        let event = try server.addEvent(name: "Party", start: "2025-09-26T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let cli = CommandLine("server-upload")
        let first = try self.ingest(cli, server)
        #expect(first.status == 0, "\(first.result.stderr)")
        #expect(first.count("uploaded") == Self.photos)
        #expect(first.count("duplicate") == 1)
        #expect(try server.sql("SELECT count(*) FROM event_photo WHERE event_id = '\(event)'") == "\(Self.photos)")
        #expect(TestEnvironment.files(under: server.data.appending("originals")).count == Self.photos)
        #expect(TestEnvironment.files(under: server.data.appending("thumbnails/500")).count == Self.photos)
        // The thumbnails the server holds are the client's: 500 and 200 px on the longest edge.
        for url in TestEnvironment.files(under: server.data.appending("thumbnails/200")).prefix(5) {
            let size = try Fixtures.dimensions(of: url)
            #expect(max(size.width, size.height) == 200)
        }
        // Every stored original is byte for byte the file it came from.
        for url in TestEnvironment.files(under: server.data.appending("originals")) {
            #expect(try Fixtures.sha256sum(url) == url.deletingPathExtension().lastPathComponent)
        }
        #expect(first.transfers["retries"] == 0)

        let again = try self.ingest(cli, server)
        #expect(again.status == 0)
        #expect(again.summary?.event?.unchanged == Self.photos + 2)

        // With a new catalog, the server's hash set says everything is there already.
        let fresh = CommandLine("server-fresh")
        let third = try self.ingest(fresh, server)
        #expect(third.status == 0)
        #expect(third.count("uploaded") == 0)
        #expect(third.count("duplicate") == Self.photos + 1)
        #expect(third.transfers["bytesUploaded"] == 0)
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "\(Self.photos)")
    }

    @Test("Injected 503s, 429s and dropped connections: every photo still uploaded exactly once, a retry per fault")
    func survivesFaults() throws {
        let server = try ReferenceServer(["--fail-rate", "0.15", "--throttle-rate", "0.08", "--drop-rate", "0.15"])
        _ = try server.addEvent(name: "Party", start: "2025-09-26T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let run = try self.ingest(CommandLine("server-faults"), server, ["--retries", "12"])
        #expect(run.status == 0, "\(run.result.stderr.suffix(3_000))")
        #expect(run.count("uploaded") == Self.photos)
        #expect(run.count("failed") == 0)
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "\(Self.photos)")
        #expect(try server.sql("SELECT count(*) FROM photo") == "\(Self.photos)")
        let faults = try server.faults()
        let injected = faults.values.reduce(0, +)
        #expect(injected > 0, "no fault was injected: \(faults)")
        // Every injected error answer (503, 429) costs exactly one retry. A dropped connection costs
        // one too, unless libcurl resent the body itself on a fresh connection, which it does when a
        // reused connection dies before any answer: so retries lie between the two counts.
        let answered = faults["failed", default: 0] + faults["throttled", default: 0]
        let retries = run.transfers["retries"] ?? -1
        #expect(retries >= answered && retries <= injected, "client \(run.transfers), server faults \(faults)")
        // Nothing half-uploaded is left behind on the server.
        #expect(TestEnvironment.files(under: server.data.appending("tmp")).isEmpty)
        ReliabilityFigure.record(
            "injected 503, 429, dropped connections",
            [
                "photos": Self.photos, "failed503": faults["failed", default: 0],
                "throttled429": faults["throttled", default: 0],
                "dropped": faults["dropped", default: 0], "retries": retries,
            ])
    }

    @Test("An expiring upload token is refreshed through --token-command exactly once under 8 concurrent uploads")
    func tokenCommandRefreshesOnce() throws {
        let server = try ReferenceServer()
        _ = try server.addEvent(name: "Party", start: "2025-09-26T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let access = try server.token(kind: "access")
        let expired = try server.token(ttl: -60, kind: "upload")
        let fresh = try server.token(kind: "upload")
        let scratch = TemporaryFolder("token-command")
        let counter = scratch.appending("calls")
        let script = scratch.appending("token.sh")
        // First call: a good access token and an expired upload token; every later call: both good.
        try """
        #!/bin/sh
        echo x >> '\(counter.path)'
        if [ "$(wc -l < '\(counter.path)')" -eq 1 ]; then
          printf '{"access":"%s","upload":"%s"}\\n' '\(access)' '\(expired)'
        else
          printf '{"access":"%s","upload":"%s"}\\n' '\(access)' '\(fresh)'
        fi
        """.write(to: script, atomically: true, encoding: .utf8)
        let run = try CommandLine("token-command").ingest(
            [try Self.corpus.get()],
            ["--server", server.url, "--timezone", "UTC", "--uploads", "8", "--token-command", "sh '\(script.path)'"])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.count("uploaded") == Self.photos)
        let calls = try String(contentsOf: counter, encoding: .utf8).split(separator: "\n").count
        #expect(calls == 2, "the token command ran \(calls) times")
        // Tokens never reach the report or the output.
        #expect(!run.result.stderr.contains(fresh) && !run.result.stdout.contains(fresh))
    }

    @Test("A refused token stops the run fast, with a message that names it")
    func wrongTokenFailsFast() throws {
        let server = try ReferenceServer()
        _ = try server.addEvent(name: "Party", start: "2025-09-26T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let cli = CommandLine("wrong-token")
        let garbage = try self.ingest(cli, server, token: "not-a-token")
        #expect(garbage.status == 3)
        #expect(garbage.result.stderr.contains("refused the access token"))
        #expect(!garbage.result.stderr.contains("not-a-token"))

        // A good access token with an upload token signed by someone else: uploads are refused.
        let forged = try server.token(kind: "upload", secret: String(repeating: "x", count: 40))
        let refused = try self.ingest(cli, server, ["--upload-token", forged])
        #expect(refused.status == 3)
        #expect(refused.summary?.event?.stoppedBy ?? "" != "")
        #expect(refused.result.stderr.contains("refused the upload token"))
        #expect(refused.count("uploaded") == 0)
        // The run stopped: far fewer files were tried than there are.
        #expect(refused.count("failed") < Self.photos)
        #expect(!refused.result.stderr.contains(forged))
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "0")
    }

    @Test("The production regression against events the server serves: windows without a zone are UTC")
    func eventWindowsFromTheServer() throws {
        let server = try ReferenceServer()
        let birthday = try server.addEvent(
            name: "Birthday Party", start: "2025-09-27T21:00:00", end: "2025-09-28T05:00:00")
        _ = try server.addEvent(name: "Brunch", start: "2025-09-28T09:00:00Z", end: "2025-09-28T12:00:00Z")
        let photos = TemporaryFolder("regression-photos")
        _ = try Fixtures.jpeg(
            in: photos, name: "inside.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 21:39:00", "EXIF:OffsetTimeOriginal": "-07:00"])
        _ = try Fixtures.jpeg(
            in: photos, name: "early.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 20:59:59", "EXIF:OffsetTimeOriginal": "+00:00"])
        let cli = CommandLine("regression")
        let run = try cli.ingest(
            [photos.url], ["--server", server.url], environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(run.status == 0, "\(run.result.stderr)")
        let events = run.summary?.events ?? []
        #expect(events.count == 2)
        #expect(run.summary?.outsideAllEvents == 1)
        #expect(run.result.stderr.contains("Event 1 of 2: Birthday Party"))
        #expect(try server.sql("SELECT filename FROM event_photo WHERE event_id = '\(birthday)'") == "inside.jpg")
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "1")
    }

    @Test(
        "Overlapping events in one pass: a photo inside two windows is uploaded to each, one inside none is outside every event"
    )
    func overlappingEvents() throws {
        let server = try ReferenceServer()
        let party = try server.addEvent(name: "Party", start: "2025-09-27T18:00:00Z", end: "2025-09-28T02:00:00Z")
        let dinner = try server.addEvent(name: "Dinner", start: "2025-09-27T19:00:00Z", end: "2025-09-27T22:00:00Z")
        let photos = TemporaryFolder("overlap-photos")
        _ = try Fixtures.jpeg(
            in: photos, name: "toast.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 20:30:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try Fixtures.jpeg(
            in: photos, name: "dance.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 23:30:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try Fixtures.jpeg(
            in: photos, name: "morning.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:28 09:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        let cli = CommandLine("overlap")
        let run = try cli.ingest(
            [photos.url], ["--server", server.url], environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(
            try server.sql("SELECT filename FROM event_photo WHERE event_id = '\(party)' ORDER BY filename")
                == "dance.jpg\ntoast.jpg")
        #expect(try server.sql("SELECT filename FROM event_photo WHERE event_id = '\(dinner)'") == "toast.jpg")
        // Each original went up once per event it belongs to, and is stored once.
        #expect(TestEnvironment.files(under: server.data.appending("originals")).count == 2)
        #expect(run.summary?.outsideAllEvents == 1)
        // The report: one line per file and event, each naming its event, and one more for the
        // photo outside every event, saying so.
        #expect(run.entries.count == 7)
        let toast = run.entries.filter { $0.path.hasSuffix("/toast.jpg") }
        #expect(Set(toast.compactMap(\.event)) == ["Party", "Dinner"])
        #expect(toast.allSatisfy { $0.status == .uploaded && $0.scope == .event })
        let fileLines = run.entries.filter { $0.scope == .file }
        #expect(fileLines.count == 1)
        #expect(fileLines.first?.path.hasSuffix("/morning.jpg") == true)
        #expect(fileLines.first?.outsideEveryEvent == true)
        // `event` written as null, not left out: FileLine reads both as nil, so this reads the line as written.
        let rawFileLine = run.reportLines
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["scope"] as? String == "file" }
        #expect(rawFileLine?["event"] is NSNull)
        let events = run.summary?.events ?? []
        #expect(events.map(\.summary) == ["2 Uploaded, 1 Outside event dates", "1 Uploaded, 2 Outside event dates"])
        // Each event's summary, then one closing line for the run; totals count each file once.
        #expect(run.result.stderr.contains("Event 2 of 2: Dinner"), "\(run.result.stderr)")
        #expect(run.result.stderr.components(separatedBy: "Elapsed ").count == 2, "\(run.result.stderr)")
        #expect(run.result.stderr.contains("(3 files,"), "\(run.result.stderr)")
        let totals = run.summary?.totals
        #expect(totals?.files == 3)
        let bytes = try TestEnvironment.files(under: photos.url).map { try Data(contentsOf: $0).count }.reduce(0, +)
        #expect(totals?.bytes == Int64(bytes), "\(totals as Any)")

        let again = try cli.ingest(
            [photos.url], ["--server", server.url], environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(again.status == 0)
        #expect((again.summary?.events ?? []).allSatisfy { $0.unchanged == 3 })
        // A file unchanged in every event is one line, not one per event.
        #expect(again.entries.count == 3)
        #expect(again.entries.allSatisfy { $0.scope == .file && $0.reason == "unchanged since an earlier run" })
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "3")
    }

    @Test(
        "A new event on the server: the re-run opens only the files inside its window"
    )
    func aNewEventOpensOnlyItsFiles() throws {
        let server = try ReferenceServer()
        let party = try server.addEvent(name: "Party", start: "2025-09-27T18:00:00Z", end: "2025-09-28T02:00:00Z")
        let photos = TemporaryFolder("new-event-photos")
        _ = try Fixtures.jpeg(
            in: photos, name: "toast.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 20:30:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try Fixtures.jpeg(
            in: photos, name: "dance.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 23:30:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try Fixtures.jpeg(
            in: photos, name: "brunch.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:28 10:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        var cli = CommandLine("new-event")
        cli.launcher = HostileInputTests.withoutRootsOverride
        let first = try cli.ingest(
            [photos.url], ["--server", server.url], environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(first.status == 0, "\(first.result.stderr)")
        #expect(first.count("uploaded") == 2)

        let brunch = try server.addEvent(name: "Brunch", start: "2025-09-28T08:00:00Z", end: "2025-09-28T12:00:00Z")
        // The stage counts say which files were opened. (They were once made unreadable here
        // instead; a chmod moves the ctime, which the stamp now holds, so it reads them again.)
        let second = try cli.ingest(
            [photos.url], ["--server", server.url], environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(second.status == 0, "\(second.result.stderr)")
        let perEvent = second.summary?.events ?? []
        #expect(perEvent.map(\.summary) == ["No photos uploaded", "1 Uploaded, 2 Outside event dates"])
        #expect(try server.sql("SELECT filename FROM event_photo WHERE event_id = '\(brunch)'") == "brunch.jpg")
        #expect(try server.sql("SELECT count(*) FROM event_photo WHERE event_id = '\(party)'") == "2")
        // One file read, of three, for two events.
        let reads = perEvent.compactMap { $0.stages["read"]?.count }
        #expect(reads.max() == 1, "\(perEvent.map(\.stages))")
    }

    @Test("File names with quotes, backslashes, line breaks and non-ASCII cross the form intact")
    func awkwardFileNames() throws {
        let server = try ReferenceServer()
        let event = try server.addEvent(name: "Party", start: "2025-09-26T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let photos = TemporaryFolder("names")
        let name = "a \"quoted\" back\\slash\nnew line Ünïcødé 📷.jpg"
        _ = try Fixtures.jpeg(
            in: photos, name: name,
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 12:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        let run = try CommandLine("names").ingest(
            [photos.url], ["--server", server.url], environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.count("uploaded") == 1)
        let listing = try runProgram(
            "curl",
            [
                "-s", "-H", "Authorization: Bearer \(try server.token())",
                server.url + "/functions/v1/api-events-uploaded-photos/" + event,
            ])
        let object = try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any]
        let stored = (object?["photos"] as? [[String: Any]])?.first?["filename"] as? String
        #expect(stored == name)
    }

    @Test(
        "--shard K/N: three shards writing into one server at once, each with its own catalog: every photo stored once")
    func shardsWriteIntoOneServer() throws {
        let server = try ReferenceServer()
        let event = try server.addEvent(name: "Party", start: "2025-09-26T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let token = try server.token()
        let shards = 3
        let clis = (0..<shards).map { CommandLine("shard-write-\($0)") }
        let runs = UnsafeTransfer<[Int: Ingest]>()
        runs.value = [:]
        DispatchQueue.concurrentPerform(iterations: shards) { index in
            let run = try? self.ingest(clis[index], server, ["--shard", "\(index)/\(shards)"], token: token)
            runs.mutate { $0[index] = run }
        }
        let done = try #require(runs.value)
        try #require(done.count == shards, "a shard did not run")
        var paths: [String] = []
        for index in 0..<shards {
            let run = done[index]!
            #expect(run.status == 0, "shard \(index): \(run.result.stderr.suffix(1_000))")
            #expect(run.count("failed") == 0)
            paths += run.entries.map(\.path)
        }
        // Each file went to exactly one shard; the byte-identical pair, wherever it fell, is stored once.
        let files = TestEnvironment.files(under: try Self.corpus.get())
        #expect(paths.sorted() == files.map(\.path).sorted())
        #expect(done.values.map { $0.count("uploaded") }.reduce(0, +) == Self.photos)
        #expect(done.values.map { $0.count("duplicate") }.reduce(0, +) == 1)
        let held = Set(try server.held(inEvent: event).keys)
        #expect(held == (try Fixtures.photoHashes(in: try Self.corpus.get())))
        #expect(TestEnvironment.files(under: server.data.appending("originals")).count == Self.photos)
        // Each shard's catalog calls done exactly its own files, all of them on the server.
        for index in 0..<shards {
            let doneHere = try Fixtures.catalogHashes(clis[index].catalog, statuses: ["uploaded", "duplicate"])
            let ownHashes = Set(done[index]!.entries.compactMap(\.sha256))
            #expect(doneHere == ownHashes, "shard \(index)")
            #expect(doneHere.isSubset(of: held))
        }
    }
}

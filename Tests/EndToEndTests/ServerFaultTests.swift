import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// photoingest and the reference server broken on purpose: killed clients, killed servers, servers
/// that hang or read slowly. Whatever happens, a later run completes the work, every photo is on
/// the server exactly once and whole, and the catalog agrees with the server.
@Suite(.serialized) struct ServerFaultTests {
    static let corpusFolder = TemporaryFolder("fault-corpus")
    /// 100 photos (three byte-identical copies among them) of a fifth of a megapixel.
    static let corpus: Result<URL, Error> = Result {
        try Fixtures.corpus(count: 100, seed: 33, megapixels: 0.2, in: corpusFolder)
    }
    static let files: Result<[URL], Error> = Result {
        try TestEnvironment.files(under: corpus.get()).filter { $0.pathExtension == "jpg" }
    }
    /// The distinct photos: what the server must end up holding.
    static let hashes: Result<Set<String>, Error> = Result { try Fixtures.photoHashes(in: corpus.get()) }
    static var photos: Set<String> {
        get throws { try hashes.get() }
    }
    /// The corpus's photo with no date is placed by its mtime: every photo must arrive.
    static let window = ["--timezone", "UTC", "--undated", "mtime"]

    /// An event wide enough for every photo, the undated one (timed by its file) included.
    static func addEvent(_ server: ReferenceServer) throws -> String {
        try server.addEvent(name: "Party", start: "2000-01-01T00:00:00Z", end: "2100-01-01T00:00:00Z")
    }

    /// Starts `photoingest run` against `server` without waiting for it.
    func start(_ cli: CommandLine, _ server: ReferenceServer, report: URL, _ extra: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = TestEnvironment.photoingest
        process.arguments =
            [
                "run", try Self.corpus.get().path, "--server", server.url, "--catalog", cli.catalog.path, "--report",
                report.path,
            ]
            + Self.window + extra
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PHOTOINGEST_TOKEN": try server.token(ttl: 86_400)
        ]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func ingest(_ cli: CommandLine, _ server: ReferenceServer, _ extra: [String] = []) throws -> Ingest {
        try cli.ingest(
            [try Self.corpus.get()], ["--server", server.url] + Self.window + extra,
            environment: ["PHOTOINGEST_TOKEN": try server.token()])
    }

    /// What a user would check after the dust settles: the server holds each photo of the corpus
    /// exactly once, whole (original hashing to its name, both thumbnails), nothing half-written
    /// under tmp/, and the catalog says done for exactly what the server holds.
    func expectServerAndCatalogAgree(_ server: ReferenceServer, _ cli: CommandLine, event: String) throws {
        let photos = try Self.photos
        let held = Set(try server.held(inEvent: event).keys)
        #expect(
            held == photos,
            "server holds \(held.count) of \(photos.count) photos; \(held.symmetricDifference(photos).count) differ")
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "\(photos.count)")
        let originals = TestEnvironment.files(under: server.data.appending("originals"))
        #expect(originals.count == photos.count)
        for original in originals {
            #expect(
                try Fixtures.sha256sum(original) == original.deletingPathExtension().lastPathComponent,
                "a corrupt original")
        }
        #expect(TestEnvironment.files(under: server.data.appending("thumbnails/500")).count == photos.count)
        #expect(TestEnvironment.files(under: server.data.appending("thumbnails/200")).count == photos.count)
        #expect(TestEnvironment.files(under: server.data.appending("tmp")).isEmpty)

        let done = try Fixtures.catalogHashes(cli.catalog, statuses: ["uploaded", "duplicate"])
        #expect(
            done == photos,
            "catalog done \(done.count), server \(photos.count); \(done.symmetricDifference(photos).count) differ")
        let notDone = try runProgram(
            "sqlite3", [cli.catalog.path, "SELECT count(*) FROM outcome WHERE status = 'failed'"]
        ).stdout
        #expect(notDone.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test("kill -9 at random moments (20 kills by default; PHOTOINGEST_KILLS for more): nothing lost, nothing twice")
    func killLoop() throws {
        let kills = Int(ProcessInfo.processInfo.environment["PHOTOINGEST_KILLS"] ?? "") ?? 20
        // Latency spreads each run over enough time for kills to land mid-upload.
        let server = try ReferenceServer(["--latency-ms", "150"])
        let event = try Self.addEvent(server)
        let cli = CommandLine("kill-loop")
        // The kill moments come from the run's fault seed, so that a failing loop can be replayed.
        var generator = SplitMix64(seed: server.faultSeed)
        var landed = 0
        var reports: [URL] = []
        var catalogAheadOfServer = 0
        // Rounds go on until `kills` kills have hit a running process: one that ended by itself
        // before its kill does not count.
        while landed < kills && reports.count < kills * 3 {
            let report = cli.folder.appending("report-\(reports.count).ndjson")
            reports.append(report)
            let before = Int(try server.sql("SELECT count(*) FROM event_photo")) ?? 0
            let process = try self.start(cli, server, report: report, ["--uploads", "1"])
            if reports.count.isMultiple(of: 2) {
                // Every other round waits for this run's first upload to land, then kills it a
                // moment later: mid-upload kills happen however slow the machine is.
                let deadline = Date().addingTimeInterval(30)
                while process.isRunning, Date() < deadline,
                    (Int(try server.sql("SELECT count(*) FROM event_photo")) ?? 0) <= before
                {
                    usleep(10_000)
                }
                usleep(UInt32.random(in: 0...300_000, using: &generator))
            } else {
                usleep(UInt32.random(in: Self.killAfter, using: &generator))
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                landed += 1
            }
            process.waitUntilExit()
            // Right after each kill: whatever the catalog calls done is on the server.
            let held = try server.held(inEvent: event)
            for row in try Self.catalogRows(cli) where row.status == "uploaded" || row.status == "duplicate" {
                if held[row.sha256] == nil {
                    catalogAheadOfServer += 1
                    Issue.record(
                        "after kill \(landed) the catalog says \(row.status) of \(row.path), not on the server (\(server.replay))"
                    )
                }
            }
        }
        #expect(landed == kills, "\(landed) kills landed in \(reports.count) rounds")
        let storedBeforeLastRun = Int(try server.sql("SELECT count(*) FROM event_photo")) ?? 0
        #expect(storedBeforeLastRun > 0, "the kills all came before any upload: they tested nothing mid-upload")

        let last = try self.ingest(cli, server)
        #expect(last.status == 0, "\(last.result.stderr.suffix(2_000))")
        #expect(last.count("failed") == 0)
        try self.expectServerAndCatalogAgree(server, cli, event: event)
        let thumbnailsChecked = try self.expectThumbnailsDecode(server)

        // File by file: the catalog's path, hash and status against the file itself and the server.
        let corpusHashes = Dictionary(
            uniqueKeysWithValues: try Self.files.get().map { ($0.path, try Fixtures.sha256sum($0)) })
        let rows = Dictionary(grouping: try Self.catalogRows(cli), by: \.path)
        let held = try server.held(inEvent: event)
        for (path, hash) in corpusHashes {
            guard let row = rows[path]?.first, rows[path]?.count == 1 else {
                Issue.record("\(path): \(rows[path]?.count ?? 0) catalog outcomes, not 1")
                continue
            }
            #expect(row.sha256 == hash, "\(path): the catalog's hash is not the file's")
            #expect(row.status == "uploaded" || row.status == "duplicate", "\(path): \(row.status)")
            #expect(held[hash] != nil, "\(path): not on the server")
            // The server names a photo after the file whose upload stored it.
            if row.status == "uploaded" {
                #expect(
                    held[hash] == URL(fileURLWithPath: path).lastPathComponent,
                    "\(path): the server calls it \(held[hash] ?? "nothing")")
            }
        }

        // No run, killed or not, said "uploaded" of a file the server does not hold.
        var claimed = 0
        var reportedButMissing = 0
        for report in reports {
            for line in ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(separator: "\n") {
                guard let entry = try? JSONDecoder().decode(FileLine.self, from: Data(line.utf8)),
                    entry.status == .uploaded, let hash = entry.sha256
                else { continue }
                claimed += 1
                if held[hash] == nil {
                    reportedButMissing += 1
                    Issue.record("reported uploaded, not on the server: \(entry)")
                }
            }
        }
        #expect(claimed > 0, "the killed runs reported nothing: the kills came too early to test anything")
        ReliabilityFigure.record(
            "kill -9 loop",
            [
                "photos": try Self.photos.count, "kills": landed, "rounds": reports.count,
                "onServerBeforeLastRun": storedBeforeLastRun, "reportedUploadedByKilledRuns": claimed,
                "reportedButMissing": reportedButMissing, "catalogDoneButMissing": catalogAheadOfServer,
                "thumbnailsDecoded": thumbnailsChecked,
            ])
    }

    @Test("kill -9 during a run over five events, then a clean run: every photo once in each event it belongs to")
    func killDuringAMultiEventRun() throws {
        let server = try ReferenceServer(["--latency-ms", "100"])
        // make-corpus dates its photos over about a day from 2025-09-27: five overlapping windows
        // over that span, and one wide enough for everything.
        let windows = [
            ("Everything", "2000-01-01T00:00:00Z", "2100-01-01T00:00:00Z"),
            ("Morning", "2025-09-27T00:00:00Z", "2025-09-27T12:00:00Z"),
            ("Afternoon", "2025-09-27T10:00:00Z", "2025-09-27T20:00:00Z"),
            ("Evening", "2025-09-27T18:00:00Z", "2025-09-28T02:00:00Z"),
            ("Night", "2025-09-28T00:00:00Z", "2025-09-29T00:00:00Z"),
        ]
        var events: [(id: String, start: Date, end: Date)] = []
        for (name, start, end) in windows {
            events.append(
                (try server.addEvent(name: name, start: start, end: end), RFC3339.parse(start)!, RFC3339.parse(end)!))
        }
        let cli = CommandLine("kill-events")
        var generator = SplitMix64(seed: server.faultSeed)
        var landed = 0
        for round in 0..<6 {
            let process = try self.start(
                cli, server, report: cli.folder.appending("report-\(round).ndjson"), ["--uploads", "2"])
            usleep(UInt32.random(in: Self.killAfter, using: &generator))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                landed += 1
            }
            process.waitUntilExit()
        }
        #expect(landed > 0, "no kill landed on a running process (\(server.replay))")
        let last = try self.ingest(cli, server)
        #expect(last.status == 0, "\(last.result.stderr.suffix(2_000))")

        // Each photo, by the capture time the catalog recorded for it, is in exactly the events
        // whose window holds it: once each, and nowhere else.
        let dated = try runProgram(
            "sqlite3",
            ["-separator", "\t", cli.catalog.path, "SELECT sha256, capture_time FROM file WHERE sha256 IS NOT NULL"])
        var expected: [String: Set<String>] = [:]
        for line in dated.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 2, let time = RFC3339.parse(fields[1]) else { continue }
            expected[fields[0]] = Set(events.filter { $0.start <= time && time <= $0.end }.map(\.id))
        }
        #expect(Set(expected.keys) == (try Self.photos), "the catalog dated \(expected.count) photos")
        let rows = try server.sql("SELECT sha256 || char(9) || event_id FROM event_photo").split(separator: "\n").map(
            String.init)
        #expect(rows.count == Set(rows).count, "a photo stored twice in one event")
        var held: [String: Set<String>] = [:]
        for row in rows {
            let fields = row.split(separator: "\t").map(String.init)
            held[fields[0], default: []].insert(fields[1])
        }
        #expect(
            held == expected,
            "\(held.filter { expected[$0.key] != $0.value }.count) photos in the wrong events (\(server.replay))")
        #expect(TestEnvironment.files(under: server.data.appending("originals")).count == (try Self.photos.count))
        #expect(try Fixtures.catalogHashes(cli.catalog, statuses: ["failed"]).isEmpty)
        ReliabilityFigure.record(
            "kill -9 during a five-event run",
            ["photos": try Self.photos.count, "events": events.count, "kills": landed, "placements": rows.count])
    }

    /// How long after its start a run is killed, in microseconds.
    static let killAfter: ClosedRange<UInt32> = 200_000...1_500_000

    struct CatalogRow {
        var path: String
        var sha256: String
        var status: String
    }

    /// Every outcome the catalog holds, read with sqlite3 (as a user would, and after a kill).
    static func catalogRows(_ cli: CommandLine) throws -> [CatalogRow] {
        guard FileManager.default.fileExists(atPath: cli.catalog.path) else { return [] }
        let result = try runProgram(
            "sqlite3",
            [
                "-separator", "\t", cli.catalog.path,
                "SELECT f.path, f.sha256, o.status FROM file f JOIN outcome o ON o.path = f.path",
            ])
        // A run killed before its first transaction leaves SQLite's empty file: no schema, no outcome.
        if result.status != 0 && result.stderr.contains("no such table") { return [] }
        #expect(result.status == 0, "sqlite3: \(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap {
            let fields = $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return fields.count == 3 ? CatalogRow(path: fields[0], sha256: fields[1], status: fields[2]) : nil
        }
    }

    /// Every thumbnail on the server decodes whole, and its long edge is 500 or 200 px (or the
    /// original's, when that is smaller). Returns how many were decoded.
    func expectThumbnailsDecode(_ server: ReferenceServer) throws -> Int {
        let originals = TestEnvironment.files(under: server.data.appending("originals"))
        let thumbnails = TestEnvironment.files(under: server.data.appending("thumbnails"))
        let sizes = try Fixtures.dimensions(of: originals + thumbnails)
        var decoded = 0
        for original in originals {
            let hash = original.deletingPathExtension().lastPathComponent
            let size = try #require(sizes[original.path], "\(original.path) is not an image")
            for edge in [500, 200] {
                let thumbnail = server.data.appending("thumbnails/\(edge)/\(hash.prefix(2))/\(hash).jpg")
                guard try Fixtures.decodesWhole(thumbnail), let made = sizes[thumbnail.path] else {
                    Issue.record("the \(edge) px thumbnail of \(hash) is missing or does not decode")
                    continue
                }
                #expect(max(made.width, made.height) == min(edge, max(size.width, size.height)), "\(thumbnail.path)")
                decoded += 1
            }
        }
        return decoded
    }

    @Test("A 429 storm (half of all requests throttled, Retry-After 1 s): honoured, and every photo arrives once")
    func throttleStorm() throws {
        let server = try ReferenceServer(["--throttle-rate", "0.5"])
        let event = try Self.addEvent(server)
        let cli = CommandLine("storm")
        let run = try self.ingest(cli, server, ["--retries", "16", "--uploads", "16"])
        #expect(run.status == 0, "\(run.result.stderr.suffix(2_000)) (\(server.replay))")
        let faults = try server.faults()
        let throttled = faults["throttled", default: 0]
        #expect(throttled > 0)
        // Every 429 is retried once; none is given up on.
        #expect(
            run.transfers["retries"] == throttled,
            "client \(run.transfers), server throttled \(throttled) (\(server.replay))")
        // Measured by the server, from the 429 it sent to the retry of the same request arriving
        // (matched by the request's Idempotency-Key): no retry came before the second it asked for.
        #expect(faults["retriedAfterThrottle"] == throttled, "\(faults)")
        let shortest = faults["shortestWaitAfterThrottleMs", default: -1]
        #expect(shortest >= 1_000, "a retry came \(shortest) ms after its 429 asked for 1 s (\(server.replay))")
        try self.expectServerAndCatalogAgree(server, cli, event: event)
        ReliabilityFigure.record(
            "429 storm",
            [
                "photos": try Self.photos.count, "throttled429": throttled, "retries": run.transfers["retries"] ?? -1,
                "retriesMatchedByServer": faults["retriedAfterThrottle", default: 0], "shortestWaitMs": shortest,
            ])
    }

    @Test("The server killed and restarted mid-run: the run rides it out with retries and everything arrives once")
    func serverRestartMidRun() throws {
        let server = try ReferenceServer(["--latency-ms", "40"])
        let event = try Self.addEvent(server)
        let cli = CommandLine("server-restart")
        let report = cli.folder.appending("report.ndjson")
        let process = try self.start(cli, server, report: report, ["--uploads", "3", "--retries", "8"])
        let deadline = Date().addingTimeInterval(60)
        while (Int(try server.sql("SELECT count(*) FROM event_photo")) ?? 0) < 5 && Date() < deadline { usleep(10_000) }
        try server.restart(after: 1.5, ["--latency-ms", "40"])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let again = try self.ingest(cli, server)
        #expect(again.count("uploaded") == 0, "the first run left work undone")
        try self.expectServerAndCatalogAgree(server, cli, event: event)
        ReliabilityFigure.record(
            "server killed and restarted mid-run", ["photos": try Self.photos.count, "serverKills": 1])
    }

    @Test(
        "A server that accepts uploads and never answers: they fail within --stall-timeout with a reason; a later run completes them"
    )
    func hangingServer() throws {
        let server = try ReferenceServer()
        let event = try Self.addEvent(server)
        try server.restart(["--hang-rate", "0.3"])
        let cli = CommandLine("hanging")
        let started = Date()
        let hung = try self.ingest(cli, server, ["--stall-timeout", "2", "--retries", "1", "--uploads", "16"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(!hung.result.timedOut)
        // Each hung upload costs 2 s, sixteen at once: far below the 600 s the test would wait.
        #expect(elapsed < 120, "the run took \(elapsed) s")
        let faults = try server.faults()
        #expect(faults["hung", default: 0] > 0, "\(faults)")
        // Hung twice (both attempts): failed, with libcurl's reason. The chance of none in 97 is 1 in 10^4.
        #expect(hung.status == 1, "\(hung.result.stderr.suffix(1_000))")
        let failed = hung.entries.filter { $0.status == .failed }
        #expect(!failed.isEmpty)
        for entry in failed {
            let reason = entry.error ?? ""
            #expect(reason.contains("Timeout") || reason.contains("timed out"), "\(entry)")
        }
        #expect(hung.count("uploaded") + hung.count("duplicate") + failed.count == (try Self.files.get().count))

        try server.restart()
        let later = try self.ingest(cli, server)
        #expect(later.status == 0, "\(later.result.stderr.suffix(2_000))")
        #expect(later.count("uploaded") + later.count("duplicate") == failed.count)
        try self.expectServerAndCatalogAgree(server, cli, event: event)
        ReliabilityFigure.record(
            "hanging server",
            [
                "photos": try Self.photos.count, "uploadsHung": faults["hung", default: 0],
                "failedThenCompleted": failed.count, "seconds": Int(elapsed.rounded()),
            ])
    }

    @Test(
        "A slow reader: uploads that keep moving finish; a server that takes every upload slower than the stall limit is given up on, the files left pending"
    )
    func slowReader() throws {
        let server = try ReferenceServer()
        let event = try Self.addEvent(server)
        // About 2.5 s per photo at this rate, well above libcurl's 1 KB/s floor: slow but moving.
        try server.restart(["--read-bytes-per-second", "60000"])
        let cli = CommandLine("slow-reader")
        let first = try self.ingest(cli, server, ["--uploads", "30", "--stall-timeout", "3"])
        #expect(first.status == 0, "\(first.result.stderr.suffix(2_000))")
        try self.expectServerAndCatalogAgree(server, cli, event: event)

        // Below 1 KB/s for longer than --stall-timeout, every upload: each is given up and tried
        // again, and once the server has answered none for --unreachable-timeout the run stops,
        // with the reason, the files left pending (not failed: nothing is wrong with them).
        let crawl = try ReferenceServer(["--read-bytes-per-second", "200"])
        _ = try Self.addEvent(crawl)
        let stalled = try self.ingest(
            CommandLine("crawl"), crawl,
            ["--uploads", "30", "--stall-timeout", "2", "--retries", "0", "--unreachable-timeout", "5"])
        #expect(stalled.status == 3, "\(stalled.result.stderr.suffix(2_000))")
        #expect(stalled.count("failed") == 0)
        let pending = stalled.entries.filter { $0.status == .pending }
        #expect(!pending.isEmpty)
        let reason = pending.first?.reason ?? ""
        #expect(
            reason.contains("did not answer for 5 s") && (reason.contains("too slow") || reason.contains("Timeout")),
            "\(reason)")
        ReliabilityFigure.record(
            "slow reader",
            [
                "photos": try Self.photos.count, "uploadedSlowly": first.count("uploaded"),
                "pendingStalled": pending.count,
            ])
    }
}

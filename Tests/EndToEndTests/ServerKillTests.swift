import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// photoingest killed with SIGKILL at random moments against the reference server: a later run
/// completes the work, every photo is on the server exactly once and whole, and the catalog
/// agrees with the server after every kill.
@Suite(.serialized) struct ServerKillTests: FaultRuns {

    @Test("kill -9 at random moments (12 kills by default; PHOTOINGEST_KILLS for more): nothing lost, nothing twice")
    func killLoop() throws {
        let kills = Int(ProcessInfo.processInfo.environment["PHOTOINGEST_KILLS"] ?? "") ?? 12
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

        let lastReport = cli.folder.appending("report-last.ndjson")
        let last = try self.ingest(cli, server, ["--report", lastReport.path])
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

        // No run, killed or not, said "uploaded" of a file the server does not hold; none called
        // a photo a duplicate that the server names after that very file (a killed run's own
        // upload, which the next run says was sent before the stop).
        var claimed = 0
        var reportedButMissing = 0
        var sentBeforeStop = 0
        for report in reports + [lastReport] {
            for line in ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(separator: "\n") {
                guard let entry = try? JSONDecoder().decode(FileLine.self, from: Data(line.utf8)),
                    let hash = entry.sha256
                else { continue }
                let name = URL(fileURLWithPath: entry.path).lastPathComponent
                if entry.status == .duplicate && held[hash] == name {
                    Issue.record("its own earlier upload called a duplicate: \(entry)")
                }
                if entry.reason == "already on the server: sent before the last stop" { sentBeforeStop += 1 }
                guard entry.status == .uploaded, report != lastReport else { continue }
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
                "sentBeforeTheStop": sentBeforeStop,
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
}

import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// What a nightly job meets when things go wrong: a server that dies, files that will never
/// decode, two runs at once, Ctrl-C while uploading. Each through the built binary.
@Suite(.serialized) struct FailurePathTests {
    static let corpusFolder = TemporaryFolder("failure-corpus")
    /// 40 photos (one a byte-identical copy) of a fifth of a megapixel.
    static let corpus: Result<URL, Error> = Result {
        try Fixtures.corpus(count: 40, seed: 57, megapixels: 0.2, in: corpusFolder)
    }
    static let photos: Result<Set<String>, Error> = Result { try Fixtures.photoHashes(in: corpus.get()) }

    static func addEvent(_ server: ReferenceServer) throws -> String {
        try server.addEvent(name: "Party", start: "2000-01-01T00:00:00Z", end: "2100-01-01T00:00:00Z")
    }

    /// Starts `photoingest run` on the corpus (or `folder`) against `server`; its output (both
    /// streams) goes to the pipe.
    func start(_ cli: CommandLine, _ server: ReferenceServer, _ extra: [String], folder: URL? = nil) throws -> (
        Process, Pipe
    ) {
        let process = Process()
        process.executableURL = TestEnvironment.photoingest
        process.arguments =
            [
                "run", try folder?.path ?? Self.corpus.get().path, "--server", server.url, "--catalog",
                cli.catalog.path,
                "--timezone", "UTC",
                "--report", cli.folder.appending("report.ndjson").path,
            ] + extra
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PHOTOINGEST_TOKEN": try server.token(ttl: 86_400)
        ]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, output)
    }

    func waitForPhotos(on server: ReferenceServer, _ count: Int) throws {
        let deadline = Date().addingTimeInterval(60)
        while (Int(try server.sql("SELECT count(*) FROM event_photo")) ?? 0) < count && Date() < deadline {
            usleep(10_000)
        }
    }

    func reportEntries(_ cli: CommandLine) throws -> [FileLine] {
        try String(contentsOf: cli.folder.appending("report.ndjson"), encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(FileLine.self, from: Data($0.utf8)) }
    }

    func catalogCount(_ cli: CommandLine, status: String) throws -> Int {
        let result = try runProgram(
            "sqlite3", [cli.catalog.path, "SELECT count(*) FROM outcome WHERE status = '\(status)'"])
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test(
        "A server killed mid-run: the run stops after --unreachable-timeout, says so once naming the server (--quiet or not), exits 3 and leaves the rest pending; a re-run completes",
        arguments: [false, true])
    func serverKilledMidRun(quiet: Bool) throws {
        let server = try ReferenceServer(["--latency-ms", "150"])
        let event = try Self.addEvent(server)
        let cli = CommandLine("dead-server")
        let (process, output) = try self.start(
            cli, server, ["--uploads", "3", "--unreachable-timeout", "3"] + (quiet ? ["--quiet"] : []))
        try self.waitForPhotos(on: server, 5)
        server.kill()
        let killed = Date()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let afterKill = Date().timeIntervalSince(killed)
        #expect(process.terminationStatus == 3, "\(text.suffix(2_000))")
        // Bounded by the breaker, not by each file's own retries (before it: every file retried
        // five times on its own, and each ended "failed").
        #expect(afterKill < 60, "the run went on for \(afterKill) s after the server died")
        #expect(text.components(separatedBy: "did not answer for 3 s").count - 1 == 1, "\(text.suffix(2_000))")
        #expect(text.contains("the server \(server.url) did not answer"))
        let entries = try self.reportEntries(cli)
        #expect(entries.filter { $0.status == .failed }.isEmpty, "a file failed for the server's death")
        #expect(!entries.filter { $0.status == .pending }.isEmpty)
        #expect(try self.catalogCount(cli, status: "failed") == 0)
        let held = try server.held(inEvent: event).count

        try server.restart()
        let again = try cli.ingest(
            [try Self.corpus.get()], ["--server", server.url, "--timezone", "UTC"],
            environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(again.status == 0, "\(again.result.stderr.suffix(2_000))")
        #expect(Set(try server.held(inEvent: event).keys) == (try Self.photos.get()))
        #expect(again.count("failed") == 0 && again.count("pending") == 0)
        ReliabilityFigure.record(
            "server killed mid-run",
            [
                "photosBeforeKill": held, "secondsAfterKill": Int(afterKill.rounded()), "unreachableTimeout": 3,
                "pending": entries.filter { $0.status == .pending }.count,
                "uploadedByRerun": again.count("uploaded"),
            ])
    }

    @Test(
        "A server unreachable at the start: the URL and what was tried are named, after at most 10 s of trying, exit 3")
    func serverUnreachableAtStart() throws {
        let server = try ReferenceServer()
        server.kill()
        let cli = CommandLine("unreachable")
        let started = Date()
        let result = try cli.run(
            ["run", try Self.corpus.get().path, "--server", server.url, "--catalog", cli.catalog.path],
            environment: ["PHOTOINGEST_TOKEN": "any"])
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Time zone") || result.stderr.hasPrefix("Asking"), "\(result.stderr)")
        #expect(result.stderr.contains("Asking \(server.url) for its events…"))
        #expect(
            result.stderr.contains(
                "cannot list the events of \(server.url): the server \(server.url) did not answer for 10 s (Couldn't connect"
            ), "\(result.stderr)")
        #expect(seconds < 60)
    }

    @Test(
        "Files that will never decode fail once: the next run decodes none of them, counts them in one line and exits 0; a changed file or --retry-failed tries again"
    )
    func knownBrokenFilesAreNotRetried() throws {
        let cli = CommandLine("known-broken")
        let broken = cli.folder.appending("broken")
        try FileManager.default.copyItem(at: TestEnvironment.realCorpus.appendingPathComponent("broken"), to: broken)
        let first = try cli.ingest([broken])
        #expect(first.status == 1)
        let failed = first.count("failed")
        #expect(failed > 50, "\(first.summary as Any)")

        let second = try cli.ingest([broken])
        #expect(second.status == 0, "\(second.result.stderr.suffix(2_000))")
        #expect(second.count("failed") == 0)
        #expect(second.summary?.event?.knownBroken == failed)
        #expect(second.summary?.event?.bytes == 0, "the second run read files")
        #expect(second.stages["thumbnail"] == nil, "the second run decoded files")
        #expect(second.result.stderr.contains("\(failed) known broken files, unchanged; --report lists them"))
        let listed = second.entries.filter { $0.knownBroken == true }
        #expect(listed.count == failed)
        #expect(listed.allSatisfy { $0.reason?.hasPrefix("known broken, unchanged since an earlier run: ") == true })

        // A file whose bytes change is tried again; the rest stay known broken.
        let changed = try #require(first.entries.first { $0.status == .failed }?.path)
        let handle = try #require(FileHandle(forWritingAtPath: changed))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0xFF, 0xD9]))
        try handle.close()
        let third = try cli.ingest([broken])
        #expect(third.count("failed") + third.count("uploaded") == 1)
        #expect(third.summary?.event?.knownBroken == failed - 1)

        let retried = try cli.ingest([broken], ["--retry-failed"])
        #expect(retried.count("failed") >= failed - 1)
        #expect(retried.summary?.event?.knownBroken == 0)
        ReliabilityFigure.record(
            "known broken files",
            [
                "failedFirstRun": failed, "knownBrokenSecondRun": second.summary?.event?.knownBroken ?? -1,
                "bytesReadSecondRun": Int(second.summary?.event?.bytes ?? -1), "exitSecondRun": Int(second.status),
            ])
    }

    @Test("Bytes broken in one event are broken in every event: a new event neither decodes them again nor fails")
    func knownBrokenInEveryEvent() throws {
        let cli = CommandLine("known-broken-events")
        let broken = try cli.folderWithACutPhoto("broken")
        let first = try cli.ingest([broken], ["--event", "Party", "--timezone", "UTC"])
        #expect(first.status == 1 && first.count("failed") == 1)
        let newEvent = try cli.ingest([broken], ["--event", "Brunch", "--timezone", "UTC"])
        #expect(newEvent.status == 0, "\(newEvent.result.stderr.suffix(2_000))")
        #expect(newEvent.count("failed") == 0 && newEvent.summary?.event?.knownBroken == 1)
        #expect(newEvent.stages["thumbnail"] == nil, "the new event decoded the broken file again")
        let entry = try #require(newEvent.entry(named: "cut.jpg"))
        #expect(entry.knownBroken == true && entry.errorCode == "decodeFailed")
        // Asked to, it tries them again.
        let retried = try cli.ingest([broken], ["--event", "Brunch", "--timezone", "UTC", "--retry-failed"])
        #expect(retried.count("failed") == 1)
    }

    @Test("A long list of failures comes grouped by reason, and the summary line is last")
    func failuresGroupedSummaryLast() throws {
        let cli = CommandLine("grouped")
        let result = try cli.run([
            "run", TestEnvironment.realCorpus.appendingPathComponent("broken").path, "--archive", cli.archive.path,
            "--catalog", cli.catalog.path,
        ])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        let failed = try #require(lines.first { $0.hasPrefix("Failed: ") })
        let count = try #require(Int(failed.dropFirst("Failed: ".count).prefix { $0.isNumber }))
        // Far fewer lines than failures: groups of at most three examples.
        let listed = lines.filter { $0.hasPrefix("    ") }
        #expect(listed.count < count / 3, "\(listed.count) example lines for \(count) failures")
        #expect(lines.contains { $0.hasPrefix("  decoding failed: ") })
        let last = try #require(lines.last)
        #expect(last.hasSuffix("; \(count) failed") && last.contains(" Stored"), "\(last)")
    }

    @Test(
        "Two runs on one catalog: the second refuses with --no-wait naming the first's pid, or waits for it and then has nothing to do"
    )
    func oneRunPerCatalog() throws {
        let server = try ReferenceServer(["--latency-ms", "200"])
        _ = try Self.addEvent(server)
        let cli = CommandLine("two-runs")
        let (first, output) = try self.start(cli, server, ["--uploads", "1"])
        try self.waitForPhotos(on: server, 2)
        let environment = ["PHOTOINGEST_TOKEN": try server.token()]
        let arguments = [
            try Self.corpus.get().path, "--server", server.url, "--catalog", cli.catalog.path, "--timezone", "UTC",
        ]
        let refused = try cli.run(["run"] + arguments + ["--no-wait"], environment: environment)
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("the photoingest run with pid \(first.processIdentifier), started 20"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("is using the catalog \(cli.catalog.path)"))

        let waited = try cli.ingest(
            [try Self.corpus.get()], ["--server", server.url, "--timezone", "UTC"], environment: environment)
        _ = output.fileHandleForReading.readDataToEndOfFile()
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(waited.status == 0, "\(waited.result.stderr.suffix(1_000))")
        #expect(waited.result.stderr.contains("Waiting for the photoingest run with pid \(first.processIdentifier)"))
        // It ran after the first, which had done everything: no crossed counts.
        #expect(waited.count("uploaded") == 0 && waited.count("duplicate") == 0 && waited.count("failed") == 0)
        #expect(waited.summary?.event?.unchanged == waited.summary?.event?.files)
    }

    @Test("The archive is locked too: a run into an archive another run holds refuses with --no-wait, or waits")
    func oneRunPerArchive() async throws {
        let cli = CommandLine("archive-lock")
        let photos = TemporaryFolder("archive-lock-photos")
        _ = try Fixtures.jpeg(in: photos)
        try FileManager.default.createDirectory(at: cli.archive, withIntermediateDirectories: true)
        try await Self.hold(cli.archive.appendingPathComponent("run.lock").path, seconds: 4)
        let refused = try cli.ingest([photos.url], ["--no-wait"])
        #expect(refused.status == 75)
        #expect(refused.result.stderr.contains("the photoingest run with pid \(getpid())"), "\(refused.result.stderr)")
        #expect(refused.result.stderr.contains("is using the archive \(cli.archive.path)"))
        let waited = try cli.ingest([photos.url])
        #expect(waited.status == 0)
        #expect(waited.result.stderr.contains("Waiting for the photoingest run with pid \(getpid())"))
        #expect(waited.count("uploaded") == 1)
    }

    /// Takes the lock at `path` as a run would, and lets go of it after `seconds`.
    static func hold(_ path: String, seconds: Double) async throws {
        let lock = try await RunLock(path: path, what: "a test", wait: false)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { withExtendedLifetime(lock) {} }
    }

    /// Sends Ctrl-C to the run and waits for it: it must exit 130 and call no file failed. Returns its report.
    func interrupt(_ process: Process, _ output: Pipe, _ cli: CommandLine) throws -> [FileLine] {
        kill(process.processIdentifier, SIGINT)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(text.suffix(1_000))")
        let entries = try self.reportEntries(cli)
        #expect(entries.filter { $0.status == .failed }.isEmpty, "\(text.suffix(2_000))")
        return entries
    }

    @Test(
        "Ctrl-C while uploading: the uploads in flight finish and are recorded, none is called failed; a re-run does the rest"
    )
    func interruptLetsUploadsFinish() throws {
        let server = try ReferenceServer(["--latency-ms", "300"])
        let event = try Self.addEvent(server)
        let cli = CommandLine("interrupt-uploads")
        let (process, output) = try self.start(cli, server, ["--uploads", "2"])
        try self.waitForPhotos(on: server, 2)
        let entries = try self.interrupt(process, output, cli)
        // Every upload the run began ended on the server and in the report: nothing abandoned.
        let uploaded = entries.filter { $0.status == .uploaded }.count
        #expect(uploaded == (try server.held(inEvent: event).count))
        #expect(try self.catalogCount(cli, status: "failed") == 0)

        let resumed = try cli.ingest(
            [try Self.corpus.get()], ["--server", server.url, "--timezone", "UTC"],
            environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(resumed.status == 0)
        #expect(Set(try server.held(inEvent: event).keys) == (try Self.photos.get()))
        #expect(resumed.count("uploaded") == (try Self.photos.get()).count - uploaded)
    }

    @Test("Ctrl-C while a big upload is still moving bytes: it finishes, past --stall-timeout, and is uploaded whole")
    func interruptWaitsForAMovingUpload() throws {
        // The server reads in bursts, about 0.8 MB/s in all: the photo of about 7 MB takes 8 s or so,
        // far past the 4 s that once ended every upload still running after Ctrl-C.
        let server = try ReferenceServer(["--read-bytes-per-second", "2000000"])
        let event = try Self.addEvent(server)
        let cli = CommandLine("interrupt-moving")
        let folder = cli.folder.appending("big")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = folder.appending(path: "noise.jpg")
        _ = try Fixtures.check(runProgram("vips", ["gaussnoise", photo.path + "[Q=95]", "3500", "2800"]))
        let (process, output) = try self.start(
            cli, server, ["--undated", "mtime", "--stall-timeout", "4"], folder: folder)
        // Interrupted once the server has taken a first megabyte of the upload.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let received = TestEnvironment.files(under: server.data.appending("tmp")).compactMap {
                try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int
            }
            if received.contains(where: { $0 > 1 << 20 }) { break }
            usleep(50_000)
        }
        let interrupted = Date()
        let entries = try self.interrupt(process, output, cli)
        #expect(Date().timeIntervalSince(interrupted) > 4, "it ended within the stall timeout: not waited for")
        #expect(entries.map(\.status) == [.uploaded], "\(entries.map { ($0.status, $0.reason ?? $0.error ?? "") })")
        let held = try server.held(inEvent: event)
        #expect(held.keys.first == (try Fixtures.sha256sum(photo)))
    }

    @Test(
        "Ctrl-C with uploads that hang: given up after --stall-timeout and left pending, not failed; a second Ctrl-C stops at once"
    )
    func interruptWithHangingUploads() throws {
        let server = try ReferenceServer()
        _ = try Self.addEvent(server)
        try server.restart(["--hang-rate", "1"])
        let cli = CommandLine("interrupt-hang")
        let (process, output) = try self.start(cli, server, ["--uploads", "2", "--stall-timeout", "3"])
        // Wait until uploads are under way (and hanging).
        let deadline = Date().addingTimeInterval(30)
        while (try server.faults())["hung", default: 0] < 2 && Date() < deadline { usleep(50_000) }
        let entries = try self.interrupt(process, output, cli)
        #expect(entries.contains { $0.status == .pending && ($0.reason ?? "").contains("Ctrl-C") })

        // A second Ctrl-C does not wait for the hanging uploads.
        let cli2 = CommandLine("interrupt-twice")
        let (twice, output2) = try self.start(cli2, server, ["--uploads", "2", "--stall-timeout", "300"])
        let deadline2 = Date().addingTimeInterval(30)
        let hung = try server.faults()["hung", default: 0]
        while (try server.faults())["hung", default: 0] < hung + 2 && Date() < deadline2 { usleep(50_000) }
        kill(twice.processIdentifier, SIGINT)
        usleep(300_000)
        let interrupted = Date()
        kill(twice.processIdentifier, SIGINT)
        _ = output2.fileHandleForReading.readDataToEndOfFile()
        twice.waitUntilExit()
        #expect(twice.terminationStatus == 130)
        #expect(Date().timeIntervalSince(interrupted) < 30)
    }
}

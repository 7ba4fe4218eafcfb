import Foundation
import IngestReport
import IngestTesting
import Testing

/// `--shard K/N` on a real Slurm cluster of one node (``SlurmCluster``): the README's job array,
/// run as written, against the reference server.
@Suite(.serialized) struct SlurmArrayTests {
    /// The README's job-array script, with its folders pointed at this test's.
    static func readmeScript(photos: URL, state: URL) throws -> String {
        let readme = try String(
            contentsOf: TestEnvironment.repository.appendingPathComponent("README.md"), encoding: .utf8)
        guard let heading = readme.range(of: "As a Slurm job array:\n\n```sh\n"),
            let end = readme.range(of: "\n```", range: heading.upperBound..<readme.endIndex)
        else { throw FixtureError("the README has no Slurm job array") }
        return readme[heading.upperBound..<end.lowerBound]
            .replacingOccurrences(of: "/shared/photos", with: photos.path)
            .replacingOccurrences(of: "$HOME/ingest", with: state.path) + "\n"
    }

    @Test("The README's job array stores every photo once; a task cancelled part-way and run again doubles nothing")
    func jobArray() throws {
        if let why = SlurmCluster.unavailable { try Test.cancel("skipped: Slurm cannot start here (\(why))") }
        let cluster = try SlurmCluster()
        let folder = TemporaryFolder("slurm-array")
        // About 12 photos a shard, more than one task holds in flight (--jobs 1, --uploads 1: 6): a
        // cancelled task (SIGTERM, which photoingest takes as the first Ctrl-C) finishes those it
        // has begun, and leaves the rest.
        let photos = try Fixtures.corpus(count: 96, seed: 39, megapixels: 0.2, in: folder)
        let expected = try Fixtures.photoHashes(in: photos)
        let state = folder.appending("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let script = folder.appending("ingest.sh")
        try Self.readmeScript(photos: photos, state: state).write(to: script, atomically: true, encoding: .utf8)
        #expect(try String(contentsOf: script, encoding: .utf8).contains("--shard \"$SLURM_ARRAY_TASK_ID/8\""))
        #expect(
            try String(contentsOf: script, encoding: .utf8).contains("--shard-plan \"\(state.path)/shard-plan.json\""))

        // Each upload answered after 400 ms, one at a time: a task takes seconds, long enough to
        // be cancelled in the middle.
        let server = try ReferenceServer(["--latency-ms", "400"])
        let event = try server.addEvent(name: "Party", start: "2000-01-01T00:00:00Z", end: "2100-01-01T00:00:00Z")
        let environment = [
            "PATH": TestEnvironment.photoingest.deletingLastPathComponent().path + ":/usr/bin:/bin",
            "PHOTOINGEST_SERVER": server.url, "PHOTOINGEST_TOKEN": try server.token(),
            "PHOTOINGEST_TIMEZONE": "UTC", "PHOTOINGEST_UNDATED": "mtime", "PHOTOINGEST_UPLOADS": "1",
        ]
        // The README asks 4 CPUs a task; this node has 2: the flag wins over the script's #SBATCH.
        let submit = ["--cpus-per-task=1", "--output=\(folder.path)/task-%a.out"]
        let job = try cluster.run("sbatch", ["--parsable"] + submit + [script.path], environment: environment)
        #expect(job.status == 0, "\(job.stderr) \(cluster.logs)")
        let id = job.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        // Task 5 is cancelled once it has uploaded a photo, before it is done.
        let catalog = state.appendingPathComponent("catalog-5.sqlite")
        let deadline = Date().addingTimeInterval(90)
        func uploaded() -> Int {
            let count = try? runProgram(
                "sqlite3", ["-readonly", catalog.path, "SELECT count(*) FROM outcome WHERE status = 'uploaded'"])
            return Int(count?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        }
        while uploaded() == 0 && Date() < deadline { usleep(100_000) }
        try cluster.run("scancel", ["\(id)_5"])
        let cancelledAt = uploaded()
        #expect(cancelledAt > 0, "task 5 uploaded nothing before the deadline: \(cluster.logs)")
        while try !cluster.run("squeue", ["-h", "-j", id]).stdout.isEmpty && Date() < deadline { usleep(200_000) }
        let held = try server.sql("SELECT count(*) FROM event_photo WHERE event_id = '\(event)'")
        #expect(
            Int(held) ?? 0 < expected.count,
            "the cancelled task left photos to do (\(cancelledAt) uploaded when cancelled)")

        // Task 5 again, alone: it finishes its shard, and nothing is doubled.
        let again = try cluster.run(
            "sbatch", ["--wait", "--array=5"] + submit + [script.path], environment: environment)
        let output = (try? String(contentsOfFile: folder.path + "/task-5.out", encoding: .utf8)) ?? ""
        #expect(again.status == 0, "\(again.stderr) \(output)")
        let rows = try server.sql(
            "SELECT count(*) || ' ' || count(DISTINCT sha256) FROM event_photo WHERE event_id = '\(event)'")
        #expect(rows == "\(expected.count) \(expected.count)", "every photo once")
        #expect(Set(try server.held(inEvent: event).keys) == expected)
        for task in 0..<8 {
            #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("catalog-\(task).sqlite").path))
        }
        // The 8 tasks started together: one drew the shard plan, the others read it (task 5's second
        // run, whose output replaced its first's, read it too).
        let outputs = (0..<8).map {
            (try? String(contentsOfFile: folder.path + "/task-\($0).out", encoding: .utf8)) ?? ""
        }
        #expect(outputs.allSatisfy { $0.contains("Shard plan \(state.path)/shard-plan.json (") }, "\(outputs)")
        #expect(outputs.filter { $0.contains("(drawn now)") }.count <= 1)
        // One report over the 8 catalogs: every shard finished, the event holds every photo once.
        let report = try runProgram(
            TestEnvironment.photoingest.path, ["report", state.path, "--json"],
            environment: ["XDG_CONFIG_HOME": folder.appending("config").path])
        #expect(report.status == 0, "\(report.stderr)")
        let summary = try JSONDecoder().decode(ImportSummary.self, from: Data(report.stdout.utf8))
        #expect(summary.complete && summary.parts.map(\.shard) == (0..<8).map { "\($0)/8" })
        // Each photo uploaded once; the files holding a photo another one does, duplicates.
        let inCatalogs = try #require(summary.inCatalogs.first)
        #expect(inCatalogs.counts.uploaded == expected.count, "\(inCatalogs)")
        #expect(
            inCatalogs.counts.uploaded + inCatalogs.counts.duplicate + inCatalogs.counts.skipped == inCatalogs.files)
        // Task 5's second run counts what its first did as unchanged: the runs' files are the
        // catalogs' still, each once.
        let ran = try #require(summary.events.first)
        #expect(ran.files == inCatalogs.files, "\(ran)")
    }
}

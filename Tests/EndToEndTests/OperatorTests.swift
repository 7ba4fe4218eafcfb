import Foundation
import IngestCore
import IngestTesting
import Testing

/// photoingest as operators run it unattended: settings from a file and the environment, JSON
/// logs, a metrics file for node_exporter, a version to report.
@Suite struct OperatorTests {
    /// Two dated photos and one that does not decode.
    static func photos(_ label: String) throws -> TemporaryFolder {
        let photos = TemporaryFolder(label)
        for (name, time) in [("one.jpg", "2025:09:28 12:00:00"), ("two.jpg", "2025:09:28 13:00:00")] {
            _ = try Fixtures.jpeg(
                in: photos, name: name, tags: ["EXIF:DateTimeOriginal": time, "EXIF:OffsetTimeOriginal": "+00:00"])
        }
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x41, count: 200)).write(
            to: photos.appending("broken.jpg"))
        return photos
    }

    /// `config show`'s line for `key`: its value and source.
    static func shown(_ output: String, _ key: String) -> (value: String, source: String)? {
        for line in output.split(separator: "\n") where line.hasPrefix(key + ": ") {
            let parts = line.dropFirst(key.count + 2).components(separatedBy: "# ")
            return (parts[0].trimmingCharacters(in: .whitespaces), parts.last ?? "")
        }
        return nil
    }

    @Test("Both executables print their version and the commit they were built from")
    func versions() throws {
        let server = TestEnvironment.photoingest.deletingLastPathComponent().appendingPathComponent("photoshare-server")
        for executable in [TestEnvironment.photoingest, server] {
            let result = try runProgram(executable.path, ["--version"])
            #expect(result.status == 0)
            #expect(
                result.stdout.range(
                    of: #"^\d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)\n$"#, options: .regularExpression)
                    != nil, "\(result.stdout)")
        }
    }

    @Test("A flag wins over PHOTOINGEST_<OPTION>, which wins over the config file, which wins over the default")
    func precedence() throws {
        let cli = CommandLine("precedence")
        let photos = try Self.photos("precedence-photos")
        let file = cli.folder.appending("config.yaml")
        let archive = cli.folder.appending("from-file-archive")
        try Data(
            """
            paths: [\(photos.path)]
            archive: \(archive.path)
            jobs: 3
            near-edge: 10
            max-pixels: 5000000
            include-hidden: true
            event: Party

            """.utf8
        ).write(to: file)
        let show = try cli.run(
            ["config", "show", "--config", file.path, "--near-edge", "30"],
            environment: ["PHOTOINGEST_NEAR_EDGE": "20", "PHOTOINGEST_JOBS": "4"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(Self.shown(show.stdout, "near-edge")?.value == "30")
        #expect(Self.shown(show.stdout, "near-edge")?.source == "command line")
        #expect(Self.shown(show.stdout, "jobs")?.value == "4")
        #expect(Self.shown(show.stdout, "jobs")?.source == "environment PHOTOINGEST_JOBS")
        #expect(Self.shown(show.stdout, "max-pixels")?.value == "5000000")
        #expect(Self.shown(show.stdout, "max-pixels")?.source == "file \(file.path)")
        #expect(Self.shown(show.stdout, "retries")?.source == "default")
        // One value where a list may stand is a list of one.
        #expect(Self.shown(show.stdout, "event")?.value == "Party")

        // A run takes its paths and archive from the file, and the environment's values.
        let run = try cli.run(
            ["run", "--config", file.path, "--catalog", cli.catalog.path, "--json"],
            environment: ["PHOTOINGEST_INCLUDE_HIDDEN": "false"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(TestEnvironment.files(under: archive.appendingPathComponent("originals")).count == 2)
        let wrongType = try cli.run(
            ["config", "show", "--config", file.path], environment: ["PHOTOINGEST_JOBS": "many"])
        #expect(wrongType.status == 2)
        #expect(
            wrongType.stderr.contains("jobs from environment PHOTOINGEST_JOBS is not a whole number"),
            "\(wrongType.stderr)")
    }

    @Test("A misspelt key in the config file is refused, naming it and the setting it likely meant")
    func unknownKey() throws {
        let cli = CommandLine("unknown-key")
        let file = cli.folder.appending("config.yaml")
        try Data("jobs: 2\nnear-egde: 30\n".utf8).write(to: file)
        for arguments in [["config", "show", "--config", file.path], ["run", ".", "--config", file.path]] {
            let result = try cli.run(arguments)
            #expect(result.status == 2)
            #expect(
                result.stderr.contains("'near-egde', which is no setting (did you mean near-edge?)"), "\(result.stderr)"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: cli.archive.path))
    }

    @Test(
        "A TOML config file takes the file's place in the precedence, with its typed values, an unquoted date-time and a masked token"
    )
    func tomlFile() throws {
        let cli = CommandLine("toml")
        let folder = cli.folder.appending("config/photoingest")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The default place: $XDG_CONFIG_HOME/photoingest/config.toml, read with no --config.
        let file = folder.appendingPathComponent("config.toml")
        try Data(
            """
            paths = ["/srv/inbox", "/srv/card"]
            jobs = 3
            near-edge = 10
            dry-run = true
            from = 2025-09-27T21:00:00Z
            stats = 45
            event = "Party"
            upload-token = "file-secret-0123456789"

            """.utf8
        ).write(to: file)
        let show = try cli.run(["config", "show", "--near-edge", "30"], environment: ["PHOTOINGEST_JOBS": "4"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.hasPrefix("# config file: \(file.path)\n"), "\(show.stdout)")
        #expect(Self.shown(show.stdout, "paths")?.value == "/srv/inbox, /srv/card")
        #expect(Self.shown(show.stdout, "paths")?.source == "file \(file.path)")
        #expect(Self.shown(show.stdout, "near-edge")?.source == "command line")
        #expect(Self.shown(show.stdout, "jobs")?.value == "4")
        #expect(Self.shown(show.stdout, "dry-run")?.value == "true")
        #expect(Self.shown(show.stdout, "from")?.value == "2025-09-27T21:00:00Z")
        #expect(Self.shown(show.stdout, "stats")?.value == "45")
        #expect(Self.shown(show.stdout, "event")?.value == "Party")
        #expect(Self.shown(show.stdout, "upload-token")?.value == "(secret, masked)")
        #expect(!show.stdout.contains("secret-0123456789"), "\(show.stdout)")

        // TOML is typed: text where a whole number belongs is refused, naming the key and the file.
        try Data("jobs = \"three\"\n".utf8).write(to: file)
        let wrongType = try cli.run(["config", "show"])
        #expect(wrongType.status == 2)
        #expect(wrongType.stderr.contains("jobs from file \(file.path) is not a whole number"), "\(wrongType.stderr)")
        try Data("jobs = 2\nnear-egde = 30\n".utf8).write(to: file)
        let misspelt = try cli.run(["config", "show"])
        #expect(misspelt.status == 2)
        #expect(
            misspelt.stderr.contains("'near-egde', which is no setting (did you mean near-edge?)"), "\(misspelt.stderr)"
        )
        // A table or a mixed array holds no setting's value: refused, not passed over.
        for text in ["[server]\nurl = \"http://localhost\"\n", "paths = [\"/srv\", 2]\n"] {
            try Data(text.utf8).write(to: file)
            let refused = try cli.run(["config", "show"])
            #expect(refused.status == 2, "\(text)")
            #expect(refused.stderr.contains("from file \(file.path) is not a"), "\(refused.stderr)")
        }
        try Data("jobs = \n".utf8).write(to: file)
        let broken = try cli.run(["config", "show"])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("cannot be read as TOML"), "\(broken.stderr)")
        #expect(broken.stderr.contains("line 1"), "\(broken.stderr)")

        // Two default files would leave it unclear which one counts.
        try Data("jobs = 2\n".utf8).write(to: file)
        try Data("jobs: 2\n".utf8).write(to: folder.appendingPathComponent("config.yaml"))
        let both = try cli.run(["config", "show"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("keep one of them"), "\(both.stderr)")
    }

    @Test("config show masks tokens from the file, the environment and the command line")
    func secretsMasked() throws {
        let cli = CommandLine("secrets")
        let file = cli.folder.appending("config.yaml")
        try Data("upload-token: file-secret-0123456789\n".utf8).write(to: file)
        let show = try cli.run(
            ["config", "show", "--config", file.path],
            environment: ["PHOTOINGEST_TOKEN": "env-secret-0123456789"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(!show.stdout.contains("secret-0123456789"), "\(show.stdout)")
        #expect(Self.shown(show.stdout, "token")?.value == "(secret, masked)")
        #expect(Self.shown(show.stdout, "upload-token")?.source == "file \(file.path)")
        let flag = try cli.run(["config", "show", "--token", "flag-secret-0123456789"])
        #expect(!flag.stdout.contains("secret-0123456789"))
    }

    @Test(
        "--log-format json: every line on standard error is a JSON object; failures are logged as they happen; no token"
    )
    func jsonLogs() throws {
        let server = try ReferenceServer()
        // Wide enough for the broken file, placed by its mtime (--undated mtime): it must fail,
        // not fall outside or stay undated.
        _ = try server.addEvent(name: "Party", start: "2025-09-26T00:00:00Z", end: "2099-01-01T00:00:00Z")
        let token = try server.token()
        let photos = try Self.photos("json-log-photos")
        let cli = CommandLine("json-logs")
        let run = try cli.ingest(
            [photos.url],
            [
                "--server", server.url, "--log-format", "json", "--log-level", "trace", "--stats", "1s", "--undated",
                "mtime",
            ],
            environment: ["PHOTOINGEST_TOKEN": token])
        #expect(run.status == 1, "\(run.result.stderr)")
        #expect(run.count("uploaded") == 2)
        let lines = run.result.stderr.split(separator: "\n")
        #expect(lines.count >= 4)
        var events: [String] = []
        for line in lines {
            let object = try #require(
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], "not JSON: \(line)")
            #expect(object["timestamp"] is String && object["level"] is String && object["message"] is String)
            if let event = object["event"] as? String { events.append(event) }
            if object["event"] as? String == "file.failed" {
                #expect((object["file.path"] as? String)?.hasSuffix("/broken.jpg") == true)
                #expect(object["error.code"] as? String == "decodeFailed")
            }
        }
        #expect(events.contains("file.failed") && events.contains("run.finished") && events.contains("run.status"))
        // The token, and any part of it that identifies it, appears nowhere.
        #expect(!run.result.stderr.contains(token))
        #expect(!run.result.stderr.contains(String(token.split(separator: ".").last ?? "")))
        #expect(!run.result.stdout.contains(token))
    }

    /// Parses a metrics file with the Prometheus client's own text parser, strictly:
    /// `name{labels} value` per sample, as `[name: [(labels, value)]]`.
    static func parsePrometheus(_ file: URL) throws -> [String: [([String: String], Double)]] {
        let script = """
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            out = {}
            for family in text_string_to_metric_families(open(sys.argv[1]).read()):
                for sample in family.samples:
                    out.setdefault(sample.name, []).append([sample.labels, sample.value])
            print(json.dumps(out))
            """
        let result = try runProgram("/usr/bin/python3", ["-c", script, file.path])
        guard result.status == 0 else {
            throw IngestError(.invalidConfiguration, "not Prometheus text: \(result.stderr)")
        }
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [[Any]]])
        return object.mapValues { samples in
            samples.map { (($0[0] as? [String: String]) ?? [:], ($0[1] as? Double) ?? .nan) }
        }
    }

    @Test("--metrics-file is Prometheus text, replaced atomically; the last success survives a failed run")
    func metricsFile() throws {
        let cli = CommandLine("metrics")
        let photos = try Self.photos("metrics-photos")
        let metrics = cli.folder.appending("photoingest.prom")
        try Data("old content\n".utf8).write(to: metrics)
        let before = try FileManager.default.attributesOfItem(atPath: metrics.path)[.systemFileNumber] as? Int

        let good = TemporaryFolder("metrics-good")
        _ = try Fixtures.jpeg(in: good, name: "fine.jpg")
        let first = try cli.ingest([good.url], ["--metrics-file", metrics.path])
        #expect(first.status == 0, "\(first.result.stderr)")
        let after = try FileManager.default.attributesOfItem(atPath: metrics.path)[.systemFileNumber] as? Int
        // Replaced by a rename (a new inode), never rewritten in place; no temporary file is left.
        #expect(before != after)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).filter { $0.hasSuffix(".tmp") }.isEmpty
        )
        let firstMetrics = try Self.parsePrometheus(metrics)
        let success = try #require(firstMetrics["photoingest_last_success_timestamp_seconds"]?.first?.1)
        #expect(abs(success - Date().timeIntervalSince1970) < 120)
        #expect(firstMetrics["photoingest_last_run_exit_status"]?.first?.1 == 0)

        let second = try cli.ingest([photos.url], ["--metrics-file", metrics.path])
        #expect(second.status == 1)
        let parsed = try Self.parsePrometheus(metrics)
        let files = try #require(parsed["photoingest_last_run_files"])
        func count(_ outcome: String) -> Double? { files.first { $0.0["outcome"] == outcome }?.1 }
        // The archive stores: its files are never said to be uploaded.
        #expect(count("stored") == 2)
        #expect(count("uploaded") == nil)
        #expect(count("failed") == 1)
        #expect(files.allSatisfy { $0.0["event"] == "default" })
        #expect(parsed["photoingest_last_run_exit_status"]?.first?.1 == 1)
        #expect(parsed["photoingest_last_success_timestamp_seconds"]?.first?.1 == success)
        #expect((parsed["photoingest_last_run_read_bytes"]?.first?.1 ?? 0) > 0)
        // Summed over the workers: busy time, named as such, not the stage's share of the run.
        #expect(parsed["photoingest_last_run_stage_busy_seconds"]?.contains { $0.0["stage"] == "thumbnail" } == true)
        #expect(parsed["photoingest_last_run_stage_seconds"] == nil)
    }
}

extension OperatorTests {
    @Test("The reference server names the port that is in use, and the data folder that is not there")
    func serverMessages() throws {
        let running = try ReferenceServer()
        let executable = TestEnvironment.photoingest.deletingLastPathComponent().appendingPathComponent(
            "photoshare-server")
        let environment = ["PHOTOSHARE_SECRET": ReferenceServer.secret]
        let other = TemporaryFolder("second-server")
        let busy = try runProgram(
            executable.path, ["serve", "--data", other.path, "--port", String(running.port)], environment: environment,
            timeout: 60)
        #expect(busy.status != 0)
        #expect(
            busy.stderr.contains("cannot listen on 127.0.0.1:\(running.port): the port is in use"), "\(busy.stderr)")
        let typo = other.appending("no-such-archive").path
        let missing = try runProgram(
            executable.path, ["serve", "--data", typo, "--port", "0"], environment: environment, timeout: 60)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("--data '\(typo)': no such folder"), "\(missing.stderr)")
    }
}

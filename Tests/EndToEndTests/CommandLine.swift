import Foundation
import IngestApp
import IngestCore
import IngestOutcome
import IngestPipeline
import IngestTesting

/// Runs the built `photoingest` as a user would, with its state kept in a temporary folder.
struct CommandLine {
    let folder: TemporaryFolder
    var archive: URL { self.folder.appending("archive") }
    var catalog: URL { self.folder.appending("state/catalog.sqlite") }

    /// A command that runs `photoingest` (e.g. `setpriv` with fewer capabilities), if any.
    var launcher: [String] = []

    init(_ label: String) {
        self.folder = TemporaryFolder(label)
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let command = self.launcher + [TestEnvironment.photoingest.path] + arguments
        return try runProgram(
            command[0], Array(command.dropFirst()),
            environment: [
                "XDG_DATA_HOME": self.folder.appending("data").path,
                "XDG_STATE_HOME": self.folder.appending("state").path,
                // No config file of the machine's user reaches the tests.
                "XDG_CONFIG_HOME": self.folder.appending("config").path,
            ].merging(environment) { $1 })
    }

    /// `photoingest run` into this folder's archive and catalog, with a report; returns the
    /// process result, the report's lines and the `--json` summary.
    func ingest(_ paths: [URL], _ extra: [String] = [], environment: [String: String] = [:]) throws -> Ingest {
        let report = self.folder.appending("report-\(UUID().uuidString.prefix(6)).ndjson")
        let result = try self.run(
            ["run"] + paths.map(\.path)
                + ["--archive", self.archive.path, "--catalog", self.catalog.path, "--report", report.path, "--json"]
                + extra, environment: environment)
        let lines = (try? String(contentsOf: report, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        let entries = lines.compactMap { try? JSONDecoder().decode(FileLine.self, from: Data($0.utf8)) }
        let summary = try? JSONDecoder().decode(JSONSummary.self, from: Data(result.stdout.utf8))
        return Ingest(result: result, entries: entries, summary: summary, reportLines: lines)
    }
}

extension CommandLine {
    /// A folder `name` in this one holding `cut.jpg`: a sample photo cut in half, which keeps its
    /// EXIF and fails to decode (a failure in its own bytes).
    func folderWithACutPhoto(_ name: String) throws -> URL {
        let folder = self.folder.appending(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var cut = try Data(contentsOf: TestEnvironment.repository.appendingPathComponent("samples/IMG_0001.jpg"))
        cut.removeLast(cut.count / 2)
        try cut.write(to: folder.appendingPathComponent("cut.jpg"))
        return folder
    }

    /// Starts `photoingest run` on one worker and returns once `count` originals are stored, well
    /// before the end: for tests that interrupt a run. Its output (both streams) is in the pipe.
    func startAndWaitForOriginals(_ corpus: URL, _ count: Int) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = TestEnvironment.photoingest
        process.arguments = [
            "run", corpus.path, "--archive", self.archive.path, "--catalog", self.catalog.path, "--jobs", "1",
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_CONFIG_HOME": self.folder.appending("config").path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let originals = self.archive.appendingPathComponent("originals")
        let deadline = Date().addingTimeInterval(30)
        while TestEnvironment.files(under: originals).count < count && Date() < deadline { usleep(10_000) }
        return (process, output)
    }
}

struct Ingest {
    var result: ProcessResult
    var entries: [FileLine]
    /// The `--json` document; nil when stdout is not one.
    var summary: JSONSummary?
    /// The report's lines as written, for what `entries` cannot say (a key there with a null value).
    var reportLines: [String]

    var status: Int32 { self.result.status }
    func count(_ status: String) -> Int {
        guard let counts = self.summary?.event?.counts, let status = FileStatus(name: status) else { return -1 }
        return counts[status]
    }
    func entry(named name: String) -> FileLine? {
        self.entries.first { $0.path.hasSuffix("/" + name) }
    }
    var stages: [String: EventSummary.StageFigures] { self.summary?.event?.stages ?? [:] }
    var transfers: [String: Int] { self.summary?.event?.transfers ?? [:] }
}

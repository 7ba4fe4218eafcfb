import Foundation
import IngestSamples

/// The built `photoshare-server`, started on a free loopback port with its own data folder,
/// stopped when this goes away.
public final class ReferenceServer: @unchecked Sendable {
    public static let secret = "photoingest-tests-0123456789abcdef0123456789"
    public let data: TemporaryFolder
    public private(set) var port: Int
    private var process: Process
    /// Seeds the server's fault injection (`--fault-seed`): from `PHOTOINGEST_FAULT_SEED`, or
    /// drawn at random. Tests that inject faults name it in their failures, so that a failing run
    /// can be replayed.
    public let faultSeed: UInt64 = ReferenceServer.chosenSeed

    public static let chosenSeed: UInt64 = {
        let seed =
            ProcessInfo.processInfo.environment["PHOTOINGEST_FAULT_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 0...UInt64.max)
        print("fault injection seed for this test run: PHOTOINGEST_FAULT_SEED=\(seed)")
        return seed
    }()

    /// What to set to replay this server's faults: for failure messages.
    public var replay: String { "replay with PHOTOINGEST_FAULT_SEED=\(self.faultSeed)" }

    public var url: String { "http://127.0.0.1:\(self.port)" }

    public static var executable: URL {
        TestEnvironment.photoingest.deletingLastPathComponent().appendingPathComponent("photoshare-server")
    }

    private var dataLimited = false

    /// Starts `photoshare-server serve` with `arguments` added (fault injection, limits).
    public init(_ arguments: [String] = [], data: TemporaryFolder = TemporaryFolder("server")) throws {
        self.data = data
        (self.process, self.port) = try Self.start(
            data: self.data, port: 0, dataLimit: nil, seed: self.faultSeed, arguments)
    }

    /// The server's process id, to watch its memory.
    public var processIdentifier: Int32 { self.process.processIdentifier }

    /// The data folder as the server sees it: on a limited one, through its own mount namespace
    /// (good for copying; SQLite resolves the /proc link to the other namespace's folder, so
    /// ``sql(_:)`` reads `data`).
    public var dataView: URL {
        self.dataLimited
            ? URL(fileURLWithPath: "/proc/\(self.process.processIdentifier)/root" + self.data.path) : self.data.url
    }

    /// Kills the server (SIGKILL: no chance to tidy up) and starts it again on the same port and
    /// data folder, with `arguments` (fault injection). With `dataLimit`, it runs on a copy of the
    /// data in a file system of that many bytes (a ``SmallFileSystem``), which fills up.
    public func restart(after pause: TimeInterval = 0, _ arguments: [String] = [], dataLimit: Int? = nil) throws {
        self.kill()
        if pause > 0 { usleep(useconds_t(pause * 1e6)) }
        (self.process, self.port) = try Self.start(
            data: self.data, port: self.port, dataLimit: dataLimit, seed: self.faultSeed, arguments)
        self.dataLimited = dataLimit != nil
    }

    /// Kills the server at once, as a crash or a power cut would.
    public func kill() {
        guard self.process.isRunning else { return }
        Foundation.kill(self.process.processIdentifier, SIGKILL)
        self.process.waitUntilExit()
    }

    private static func start(
        data: TemporaryFolder, port: Int, dataLimit: Int?, seed: UInt64, _ arguments: [String]
    ) throws -> (Process, Int) {
        let process = Process()
        var command =
            [Self.executable.path, "serve", "--data", data.path, "--port", String(port), "--fault-seed", String(seed)]
            + arguments
        if let dataLimit {
            command = SmallFileSystem.command(mounting: data.path, bytes: dataLimit, script: "exec \"$@\"", command)
        }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(["PHOTOSHARE_SECRET": Self.secret]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The server prints "photoshare-server listening on http://HOST:PORT" once it listens.
        let line = UnsafeTransfer<String>()
        let reader = Thread {
            var text = ""
            while !text.contains("\n") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            line.value = text
        }
        reader.start()
        let deadline = Date().addingTimeInterval(60)
        while !line.isSet && Date() < deadline { usleep(10_000) }
        guard let text = line.value,
            let port = text.split(separator: ":").last.flatMap({
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            })
        else {
            process.terminate()
            throw FixtureError("photoshare-server did not start: \(line.value ?? "no output")")
        }
        return (process, port)
    }

    deinit { self.kill() }

    /// Runs another photoshare-server subcommand against this server's data and secret.
    @discardableResult
    public func command(_ arguments: [String], secret: String = ReferenceServer.secret) throws -> String {
        let result = try runProgram(Self.executable.path, arguments, environment: ["PHOTOSHARE_SECRET": secret])
        guard result.status == 0 else {
            throw FixtureError("photoshare-server \(arguments.first ?? ""): \(result.stderr)")
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Adds an event and returns its id.
    public func addEvent(name: String, start: String, end: String, participants: [String] = ["alice"]) throws -> String
    {
        try self.command(
            ["event", "add", "--data", self.data.path, "--name", name, "--start", start, "--end", end]
                + participants.flatMap { ["--participant", $0] })
    }

    public func token(
        user: String = "alice", ttl: Int = 3_600, kind: String? = nil, secret: String = ReferenceServer.secret
    ) throws
        -> String
    {
        try self.command(
            ["token", "--user", user, "--ttl=\(ttl)"] + (kind.map { ["--kind", $0] } ?? []), secret: secret)
    }

    /// Runs SQL on the server's index and returns what sqlite3 printed.
    public func sql(_ query: String) throws -> String {
        try runProgram("sqlite3", [self.data.appending("index.sqlite").path, query]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What the server's fault injection did: `failed`, `throttled`, `dropped` counts.
    public func faults() throws -> [String: Int] {
        let result = try runProgram("curl", ["-s", self.url + "/_faults"])
        return (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Int]) ?? [:]
    }
}

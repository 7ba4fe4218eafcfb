import Foundation
import IngestApp
import IngestCore
import IngestTesting
import Testing

/// `photoingest watch` against the reference server, with the photos written by a separate
/// process as a camera's FTP upload or a tethered laptop would: at a burst's pace, some slowly in
/// chunks through one open file, some moved in, some in a folder made meanwhile, a Live Photo's
/// still and clip a second apart.
@Suite(.serialized) struct WatchRunTests {
    /// Writes photos into a folder at a pace; prints one line `path<TAB>sha256` per photo written.
    /// Each is a sample with a comment segment of its own, so that every photo is another photo.
    /// With `monitor` 1, a second inotify on the folders sees every open: a file written in place
    /// that was opened before its writer closed it is printed `EARLY<TAB>path<TAB>opens`.
    static let writer = #"""
        import ctypes, hashlib, os, struct, sys, threading, time
        folder, staging, count, pace = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
        monitor, samples = sys.argv[5] == '1', sys.argv[6:]
        libc = ctypes.CDLL(None, use_errno=True)
        IN_OPEN, IN_CLOSE_WRITE = 0x20, 0x08
        inotify = libc.inotify_init1(os.O_NONBLOCK) if monitor else -1
        watched, events = {}, []
        def watch(path):
            if monitor and path not in watched.values():
                watched[libc.inotify_add_watch(inotify, path.encode(), IN_OPEN | IN_CLOSE_WRITE)] = path
        def drain():
            while monitor:
                try:
                    data = os.read(inotify, 65536)
                except BlockingIOError:
                    return
                offset = 0
                while offset < len(data):
                    wd, mask, _, length = struct.unpack_from('iIII', data, offset)
                    name = data[offset + 16:offset + 16 + length].rstrip(b'\0').decode()
                    offset += 16 + length
                    if name: events.append((os.path.join(watched[wd], name), mask))
        watch(folder)
        lock = threading.Lock()
        def photo(i):
            data = open(samples[i % len(samples)], 'rb').read()
            text = ('photo %d of a watched burst' % i).encode()
            return data[:2] + b'\xff\xfe' + (len(text) + 2).to_bytes(2, 'big') + text + data[2:]
        def done(path, data):
            with lock:
                print('%s\t%s' % (path, hashlib.sha256(data).hexdigest()), flush=True)
        def slowly(path, data):
            # One open file, five chunks over three seconds: only the close says it is whole.
            with open(path, 'wb') as f:
                step = len(data) // 5 + 1
                for k in range(5):
                    f.write(data[k * step:(k + 1) * step]); f.flush(); time.sleep(0.6)
            done(path, data)
        threads = []
        for i in range(count):
            data = photo(i)
            sub = os.path.join(folder, 'later') if i >= count // 2 else folder
            os.makedirs(sub, exist_ok=True)
            watch(sub)
            drain()
            path = os.path.join(sub, 'IMG_%04d.jpg' % i)
            if i % 10 == 3:
                t = threading.Thread(target=slowly, args=(path, data)); t.start(); threads.append(t)
            elif i % 10 == 7:
                moving = os.path.join(staging, 'IMG_%04d.jpg' % i)
                open(moving, 'wb').write(data); os.rename(moving, path); done(path, data)
            else:
                open(path, 'wb').write(data); done(path, data)
            time.sleep(pace)
        for t in threads: t.join()
        time.sleep(0.5)
        drain()
        opens, closed = {}, set()
        for path, mask in events:
            if mask & IN_CLOSE_WRITE: closed.add(path)
            elif mask & IN_OPEN and path not in closed: opens[path] = opens.get(path, 0) + 1
        for path, count in sorted(opens.items()):
            # The writer's own open is one; a file moved in was opened elsewhere.
            if count > 1 and path in closed: print('EARLY\t%s\t%d' % (path, count), flush=True)
        """#

    /// A watch of `folder` against `server`, its standard error in `log`.
    static func startWatch(
        _ cli: CommandLine, _ server: ReferenceServer?, folder: URL, _ extra: [String] = []
    ) throws -> Process {
        let (report, log) = (Self.report(cli), Self.log(cli))
        let process = Process()
        process.executableURL = TestEnvironment.photoingest
        let target = try server.map { ["--server", $0.url] } ?? ["--archive", cli.archive.path]
        process.arguments =
            [
                "watch", folder.path, "--catalog", cli.catalog.path, "--report", report.path,
                "--settle", "1s", "--stats", "1s", "--timezone", "UTC", "--undated", "mtime",
                "--metrics-file", cli.folder.appending("watch.prom").path,
            ] + target + extra
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PHOTOINGEST_TOKEN": try server?.token(ttl: 86_400) ?? "",
            "XDG_CONFIG_HOME": cli.folder.appending("config").path,
        ]) { $1 }
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // Watching once it says so: files written before then are the walk's.
        try Self.wait("the watch to start", timeout: 60) {
            (try? String(contentsOf: log, encoding: .utf8))?.contains("Watching ") == true || !process.isRunning
        }
        return process
    }

    /// Runs the writer: `count` photos into `folder`, one every `pace` seconds; returns the
    /// hashes written, by path. With `monitorOpens`, a file opened before its writer closed it
    /// is a test failure.
    static func write(
        _ count: Int, into folder: URL, staging: URL, pace: Double, monitorOpens: Bool = false
    ) throws -> [String: String] {
        let samples = (1...8).map { TestEnvironment.repository.appendingPathComponent("samples/IMG_000\($0).jpg").path }
        let result = try runProgram(
            "python3",
            ["-c", Self.writer, folder.path, staging.path, "\(count)", "\(pace)", monitorOpens ? "1" : "0"] + samples,
            timeout: 300)
        guard result.status == 0 else { throw WriterFailed(message: result.stderr) }
        var written: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            if fields.count == 3 && fields[0] == "EARLY" {
                Issue.record("\(fields[1]) was opened \(fields[2]) times before its writer closed it")
            } else if fields.count == 2 {
                written[fields[0]] = fields[1]
            }
        }
        return written
    }

    static func wait(_ what: String, timeout: TimeInterval, until condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            try #require(Date() < deadline, "timed out waiting for \(what)")
            usleep(100_000)
        }
    }

    /// A reference server with an event wide enough for every photo, and a command line whose
    /// folder holds `hot/` (watched) and `staging/` (where files wait to be moved in).
    static func setUp(_ label: String) throws -> (
        server: ReferenceServer, event: String, cli: CommandLine, hot: URL, staging: URL
    ) {
        let server = try ReferenceServer()
        let event = try server.addEvent(name: "Gala", start: "2000-01-01T00:00:00Z", end: "2100-01-01T00:00:00Z")
        let cli = CommandLine(label)
        for name in ["hot", "staging"] {
            try FileManager.default.createDirectory(at: cli.folder.appending(name), withIntermediateDirectories: true)
        }
        return (server, event, cli, cli.folder.appending("hot"), cli.folder.appending("staging"))
    }

    /// The watch's per-file report, and its standard output and error.
    static func report(_ cli: CommandLine) -> URL { cli.folder.appending("report.ndjson") }
    static func log(_ cli: CommandLine) -> URL { cli.folder.appending("watch.log") }

    static func stop(_ process: Process) -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test("300 photos written into a watched folder at 10 a second: each uploaded once and whole, a pair together")
    func burst() throws {
        let (server, event, cli, hot, staging) = try Self.setUp("watch-burst")
        // One photo there before the watch: the walk's.
        try FileManager.default.copyItem(
            at: TestEnvironment.repository.appendingPathComponent("samples/IMG_0001.jpg"),
            to: hot.appendingPathComponent("before.jpg"))
        let (report, log) = (Self.report(cli), Self.log(cli))
        let watch = try Self.startWatch(cli, server, folder: hot)
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        try #require(watch.isRunning, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")

        var written = try Self.write(300, into: hot, staging: staging, pace: 0.1, monitorOpens: true)
        written[hot.appendingPathComponent("before.jpg").path] = try Fixtures.sha256sum(
            hot.appendingPathComponent("before.jpg"))
        // A Live Photo: the still, then its clip a second later.
        let heic = TestEnvironment.realCorpus.appendingPathComponent("heic/IMG_2927.HEIC")
        let clipFolder = TemporaryFolder(at: staging.appendingPathComponent("clip"))
        let clip = try Fixtures.video(
            in: clipFolder, name: "IMG_2927.MOV", creationTime: "2020-05-04T22:39:13Z",
            keys: ["com.apple.quicktime.content.identifier": "1745E022-9712-43C7-B024-F308EC6413CB"])
        try FileManager.default.copyItem(at: heic, to: hot.appendingPathComponent("IMG_2927.HEIC"))
        sleep(1)
        try FileManager.default.moveItem(at: clip, to: hot.appendingPathComponent("IMG_2927.MOV"))
        for name in ["IMG_2927.HEIC", "IMG_2927.MOV"] {
            written[hot.appendingPathComponent(name).path] = try Fixtures.sha256sum(hot.appendingPathComponent(name))
        }
        let expected = Set(written.values)
        #expect(expected.count == 303)

        // Loaded, a debug build works through the backlog for minutes: what fails is a photo that
        // never comes, nothing new arriving for a minute.
        var missing = expected
        var (count, changed) = (-1, Date())
        while !missing.isEmpty, watch.isRunning, Date().timeIntervalSince(changed) < 60 {
            let held = Set(try server.held(inEvent: event).keys)
            missing = expected.subtracting(held)
            if held.count != count { (count, changed) = (held.count, Date()) }
            usleep(200_000)
        }
        if !missing.isEmpty {
            let paths = written.filter { missing.contains($0.value) }.keys.sorted()
            let lines = ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(separator: "\n").filter {
                line in
                paths.contains { line.contains(#""path":"\#($0)""#) }
            }
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let said = String(output.suffix(3_000))
            Issue.record(
                "\(missing.count) photos never reached the server: \(paths.prefix(10)); their lines: \(lines.prefix(10)); the watch said: \(said)"
            )
            return
        }
        // The metrics file says how the watch goes while it goes, and how it ended.
        let metrics = cli.folder.appending("watch.prom")
        let going = (try? String(contentsOf: metrics, encoding: .utf8)) ?? ""
        #expect(going.contains("photoingest_watch_files_measured "), "\(going)")
        #expect(!going.contains("photoingest_last_run_exit_status"), "a watch still going has no exit status")
        let status = Self.stop(watch)
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(output)")
        let ended = (try? String(contentsOf: metrics, encoding: .utf8)) ?? ""
        #expect(ended.contains("photoingest_last_run_exit_status 0"), "\(ended)")
        #expect(ended.contains(#"photoingest_watch_wait_seconds{quantile="0.95"}"#), "\(ended)")
        // Every file that arrived: the one there before the watch was the walk's.
        #expect(ended.contains("photoingest_watch_files_measured 302"), "\(ended)")

        // Each photo once, whole: the server holds exactly what was written, nothing half.
        let held = try server.held(inEvent: event)
        #expect(Set(held.keys) == expected, "\(Set(held.keys).symmetricDifference(expected).count) differ")
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "\(expected.count)")
        // One line per file: a file written slowly was read once, whole, when it was closed.
        let lines = try String(contentsOf: report, encoding: .utf8).split(separator: "\n")
        let entries = lines.compactMap { try? JSONDecoder().decode(FileLine.self, from: Data($0.utf8)) }
        for (path, sha256) in written {
            let mine = entries.filter { $0.path == path }
            let shown = mine.map { "\($0.status) \($0.reason ?? "") \($0.pair?.path ?? "")" }
            #expect(mine.count == 1, "\(path): \(shown)")
            #expect(mine.first?.sha256 == sha256, "\(path) was read before it was whole")
            #expect(mine.first?.status == .uploaded, "\(path): \(String(describing: mine.first?.status))")
        }
        // The still went alone; its clip, a second later, joined it (the still was read again for
        // that, and has no second line).
        let clipLine = entries.first { $0.path.hasSuffix("/IMG_2927.MOV") }
        #expect(clipLine?.pair?.path.hasSuffix("/IMG_2927.HEIC") == true, "the clip did not join its still")
        #expect(output.contains("Watched: "), "\(output)")
        #expect(output.contains("latency.p95.seconds"), "the status lines give the wait")
    }

    @Test("Killed with SIGKILL in the middle of a burst and started again: every photo once")
    func killedAndRestarted() throws {
        let (server, event, cli, hot, staging) = try Self.setUp("watch-kill")
        let first = try Self.startWatch(cli, server, folder: hot)
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        // The writer goes on while the watch is killed, and while none runs.
        let writing = Thread.detachNewThreadWithResult {
            try Self.write(30, into: hot, staging: staging, pace: 0.1)
        }
        try Self.wait("a first upload", timeout: 60) { try !server.held(inEvent: event).isEmpty }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        let written = try writing.value()
        let second = try Self.startWatch(cli, server, folder: hot)
        defer { if second.isRunning { kill(second.processIdentifier, SIGKILL) } }
        let expected = Set(written.values)
        try Self.wait("every photo on the server", timeout: 120) {
            Set(try server.held(inEvent: event).keys).isSuperset(of: expected) || !second.isRunning
        }
        #expect(Self.stop(second) == 0)
        #expect(Set(try server.held(inEvent: event).keys) == expected)
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "\(expected.count)")
    }
}

extension WatchRunTests {
    @Test("The server stopped for 30 s in the middle of a burst: nothing lost, the backlog sent when it returns")
    func serverAway() throws {
        let (server, event, cli, hot, staging) = try Self.setUp("watch-server-away")
        let log = Self.log(cli)
        let watch = try Self.startWatch(cli, server, folder: hot)
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        var written = try Self.write(10, into: hot, staging: staging, pace: 0.1)
        try Self.wait("the first photos on the server", timeout: 60) {
            try server.held(inEvent: event).count == written.count || !watch.isRunning
        }
        server.kill()
        // Written while the server is away: 30 s, longer than run's --unreachable-timeout.
        let away = Date()
        let during = TemporaryFolder(at: hot.appendingPathComponent("during"))
        written.merge(try Self.write(10, into: during.url, staging: staging, pace: 0.5)) { $1 }
        usleep(useconds_t(max(0, 30 - Date().timeIntervalSince(away)) * 1e6))
        #expect(watch.isRunning, "the watch ended while the server was away")
        try server.restart()
        let expected = Set(written.values)
        try Self.wait("the backlog on the server", timeout: 120) {
            Set(try server.held(inEvent: event).keys).isSuperset(of: expected) || !watch.isRunning
        }
        #expect(Self.stop(watch) == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        #expect(Set(try server.held(inEvent: event).keys) == expected)
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "\(expected.count)")
    }
}

extension WatchRunTests {
    @Test("An event created on the server while the watch runs: it starts again with it, and fills it")
    func newEvent() throws {
        let (server, first, cli, hot, staging) = try Self.setUp("watch-new-event")
        let log = Self.log(cli)
        let watch = try Self.startWatch(cli, server, folder: hot, ["--refresh", "1s", "--json"])
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        var written = try Self.write(5, into: hot, staging: staging, pace: 0.1)
        try Self.wait("the first photos in the first event", timeout: 60) {
            try server.held(inEvent: first).count == written.count || !watch.isRunning
        }
        let second = try server.addEvent(name: "Afterparty", start: "2000-01-01T00:00:00Z", end: "2100-01-01T00:00:00Z")
        try Self.wait("the watch to see the new event and watch again", timeout: 60) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let restarted = text.range(of: "starting again with them")
            return restarted.map { text[$0.upperBound...].contains("Watching ") } == true || !watch.isRunning
        }
        let later = TemporaryFolder(at: hot.appendingPathComponent("later"))
        written.merge(try Self.write(5, into: later.url, staging: staging, pace: 0.1)) { $1 }
        let expected = Set(written.values)
        try Self.wait("every photo in both events", timeout: 120) {
            let both = (try server.held(inEvent: first).keys, try server.held(inEvent: second).keys)
            return (Set(both.0) == expected && Set(both.1) == expected) || !watch.isRunning
        }
        // What it says once stopped: its closing lines tell why, should it end otherwise than 0.
        let status = Self.stop(watch)
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(output.suffix(6_000))")
        #expect(output.contains("new event Afterparty"), "\(output)")
        #expect(Set(try server.held(inEvent: first).keys) == expected)
        #expect(Set(try server.held(inEvent: second).keys) == expected)
        // --json: a line for each run; the one that ended to start again says why, the last does not.
        let documents = try output.split(separator: "\n").filter { $0.hasPrefix("{") }.map {
            try JSONDecoder().decode(JSONSummary.self, from: Data($0.utf8))
        }
        try #require(documents.count == 2, "\(output.suffix(6_000))")
        #expect(documents[0].restartingFor?.contains("new event Afterparty") == true)
        #expect(documents[0].events.count == 1)
        #expect(documents[1].restartingFor == nil)
        #expect(documents[1].events.count == 2)
        // The closing line's waits are the whole watch's: the first run's photos and the later ones.
        #expect(output.contains("Watched: 10 files arrived"), "\(output.suffix(6_000))")
    }

    @Test(
        "An upload answered \"duplicate\" (another client sent the bytes) fetches the hash set again at once: the next such file is not sent"
    )
    func duplicateRefreshes() throws {
        let (server, event, cli, hot, _) = try Self.setUp("watch-duplicate")
        let log = Self.log(cli)
        let watch = try Self.startWatch(cli, server, folder: hot, ["--refresh", "1h"])
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        // A phone (here another photoingest) uploads two photos after the watch read the event.
        let phone = CommandLine("watch-duplicate-phone")
        let camera = phone.folder.appending("camera")
        try FileManager.default.createDirectory(at: camera, withIntermediateDirectories: true)
        let samples = TestEnvironment.repository.appendingPathComponent("samples")
        for name in ["IMG_0001.jpg", "IMG_0002.jpg"] {
            try FileManager.default.copyItem(
                at: samples.appendingPathComponent(name), to: camera.appendingPathComponent(name))
        }
        let sent = try phone.run(
            ["run", camera.path, "--server", server.url, "--catalog", phone.catalog.path, "--timezone", "UTC"],
            environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try server.held(inEvent: event).count == 2)

        // The first reaches the watch: sent, and answered "duplicate"; the set is fetched again.
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent("IMG_0001.jpg"), to: hot.appendingPathComponent("IMG_0001.jpg"))
        try Self.wait("the set fetched again", timeout: 60) {
            (try? String(contentsOf: log, encoding: .utf8))?.contains("fetching what the server holds again") == true
                || !watch.isRunning
        }
        // The second is found in it: not sent.
        try FileManager.default.copyItem(
            at: samples.appendingPathComponent("IMG_0002.jpg"), to: hot.appendingPathComponent("IMG_0002.jpg"))
        func lines() -> [FileLine] {
            ((try? String(contentsOf: Self.report(cli), encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONDecoder().decode(FileLine.self, from: Data($0.utf8))
            }
        }
        try Self.wait("both files' outcomes", timeout: 60) { lines().count == 2 || !watch.isRunning }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(Self.stop(watch) == 0, "\(output)")
        let outcomes = Dictionary(lines().map { (($0.path as NSString).lastPathComponent, $0) }) { $1 }
        #expect(outcomes["IMG_0001.jpg"]?.status == .duplicate)
        #expect(outcomes["IMG_0001.jpg"]?.reason?.hasSuffix("(stored since this run read what it holds)") == true)
        #expect(outcomes["IMG_0002.jpg"]?.status == .duplicate)
        #expect(outcomes["IMG_0002.jpg"]?.reason == "the event already holds these bytes", "\(output)")
        #expect(try server.held(inEvent: event).count == 2)
    }

    @Test("SIGHUP reads the config file again: an exclusion added there holds for the files that come after")
    func reloadOnHangUp() throws {
        let cli = CommandLine("watch-hangup")
        let hot = cli.folder.appending("hot")
        try FileManager.default.createDirectory(at: hot, withIntermediateDirectories: true)
        let config = cli.folder.appending("watch.yaml")
        try Data("event: Gala\n".utf8).write(to: config)
        let log = Self.log(cli)
        let watch = try Self.startWatch(cli, nil, folder: hot, ["--config", config.path])
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        let sample = { (number: Int) in
            TestEnvironment.repository.appendingPathComponent("samples/IMG_000\(number).jpg")
        }
        let originals = cli.archive.appendingPathComponent("originals")
        try FileManager.default.copyItem(at: sample(2), to: hot.appendingPathComponent("skip-1.jpg"))
        try Self.wait("the first photo stored", timeout: 60) {
            TestEnvironment.files(under: originals).count == 1 || !watch.isRunning
        }
        try Data("event: Gala\nexclude: [\"skip-*\"]\n".utf8).write(to: config)
        kill(watch.processIdentifier, SIGHUP)
        try Self.wait("the settings read again", timeout: 60) {
            (try? String(contentsOf: log, encoding: .utf8))?.contains("SIGHUP: the settings were read again") == true
                || !watch.isRunning
        }
        try Self.wait("the watch to follow the folder again", timeout: 60) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").components(separatedBy: "Watching ").count == 3
                || !watch.isRunning
        }
        try FileManager.default.copyItem(at: sample(3), to: hot.appendingPathComponent("skip-2.jpg"))
        try FileManager.default.copyItem(at: sample(4), to: hot.appendingPathComponent("keep-3.jpg"))
        try Self.wait("the photo not excluded stored", timeout: 60) {
            TestEnvironment.files(under: originals).count >= 2 || !watch.isRunning
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(Self.stop(watch) == 0, "\(output)")
        let stored = Set(try TestEnvironment.files(under: originals).map { try Fixtures.sha256sum($0) })
        #expect(stored == Set(try [sample(2), sample(4)].map { try Fixtures.sha256sum($0) }), "\(output)")
    }
}

struct WriterFailed: Error {
    var message: String
}

extension Thread {
    /// Runs `body` on a thread of its own; `value()` waits for its result.
    fileprivate static func detachNewThreadWithResult<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T
    ) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread.detachNewThread { result.set(Result { try body() }) }
        return result
    }
}

/// The result of a body run on a thread of its own.
final class ThreadResult<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<T, Error>?

    func set(_ result: Result<T, Error>) {
        self.condition.lock()
        self.result = result
        self.condition.broadcast()
        self.condition.unlock()
    }

    func value() throws -> T {
        self.condition.lock()
        defer { self.condition.unlock() }
        while self.result == nil { self.condition.wait() }
        return try self.result!.get()
    }
}

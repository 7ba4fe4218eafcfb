import Foundation
import IngestApp
import IngestTesting
import Testing

/// The watch's silent losses of earlier versions: folders copied in while it is busy, and files
/// whose writer stalls for longer than a minute.
extension WatchRunTests {
    /// Makes the photos of a burst in `staging`: `big` photos of 12 MP (noise, a few MB each) in
    /// `big/`, and small ones of about 45 KB in the folders named (`name=count`); every photo
    /// other bytes (a comment segment of its own). Prints `name<TAB>sha256` per photo, relative
    /// to `staging`.
    static let burstMaker = #"""
        import hashlib, os, subprocess, sys
        staging, big, folders = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
        def numbered(data, text):
            text = text.encode()
            return data[:2] + b'\xff\xfe' + (len(text) + 2).to_bytes(2, 'big') + text + data[2:]
        def write(relative, data):
            path = os.path.join(staging, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, 'wb').write(data)
            print('%s\t%s' % (relative, hashlib.sha256(data).hexdigest()))
        subprocess.run(['vips', 'gaussnoise', os.path.join(staging, 'noise.jpg[Q=80]'), '4000', '3000',
                        '--sigma', '20', '--mean', '128'], check=True)
        noise = open(os.path.join(staging, 'noise.jpg'), 'rb').read()
        os.remove(os.path.join(staging, 'noise.jpg'))
        for i in range(big):
            write('big/BIG_%03d.jpg' % i, numbered(noise, 'big photo %d' % i))
        subprocess.run(['vips', 'gaussnoise', os.path.join(staging, 'small.jpg'), '320', '240'], check=True)
        small = open(os.path.join(staging, 'small.jpg'), 'rb').read()
        os.remove(os.path.join(staging, 'small.jpg'))
        for spec in folders:
            name, count = spec.split('=')
            for i in range(int(count)):
                write('%s/IMG_%04d.jpg' % (name, i), numbered(small, 'photo %d of %s' % (i, name)))
        """#

    /// Makes a burst's photos in `staging` (``burstMaker``); returns each photo's SHA-256 by the
    /// path it will have under `bound` once copied or moved there.
    static func makeBurst(in staging: URL, big: Int, _ folders: [String], bound: URL) throws -> [String: String] {
        let made = try runProgram("python3", ["-c", Self.burstMaker, staging.path, "\(big)"] + folders, timeout: 300)
        try #require(made.status == 0, "\(made.stderr)")
        var written: [String: String] = [:]
        for line in made.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            if fields.count == 2 { written[bound.appendingPathComponent(fields[0]).path] = fields[1] }
        }
        return written
    }

    @Test(
        "1,000 files copied with cp -r into a new folder, and four folders of 250 at once, while the watch is busy: each arrives once"
    )
    func copiedFoldersWhileBusy() throws {
        let (server, event, cli, hot, staging) = try Self.setUp("watch-cp-burst")
        let written = try Self.makeBurst(
            in: staging, big: 24, ["a=1000", "b1=250", "b2=250", "b3=250", "b4=250"], bound: hot)
        #expect(written.count == 2_024)
        let watch = try Self.startWatch(cli, server, folder: hot)
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        // The big photos first, so that the watch is busy; then the copies, all at once.
        let copies = try runProgram(
            "sh",
            [
                "-c",
                """
                cp -r "$1/big" "$2/big" && cp -r "$1/a" "$2/a" & \
                sleep 0.5; for b in b1 b2 b3 b4; do cp -r "$1/$b" "$2/$b" & done; wait
                """,
                "copies", staging.path, hot.path,
            ], timeout: 300)
        try #require(copies.status == 0, "\(copies.stderr)")
        let expected = Set(written.values)
        var (count, changed) = (-1, Date())
        var held: Set<String> = []
        while held != expected, watch.isRunning, Date().timeIntervalSince(changed) < 60 {
            held = Set(try server.held(inEvent: event).keys)
            if held.count != count { (count, changed) = (held.count, Date()) }
            usleep(500_000)
        }
        let missing = written.filter { !held.contains($0.value) }.keys.sorted()
        let output = (try? String(contentsOf: Self.log(cli), encoding: .utf8)) ?? ""
        #expect(
            missing.isEmpty,
            "\(missing.count) never arrived: \(missing.prefix(10)); the watch said \(output.suffix(2_000))")
        #expect(Self.stop(watch) == 0, "\(output.suffix(2_000))")
        // Each photo once in the event: none sent twice.
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "\(held.count)")
        // One line per file in the report: none read twice.
        let lines = try String(contentsOf: Self.report(cli), encoding: .utf8).split(separator: "\n")
        let paths = lines.compactMap { try? JSONDecoder().decode(FileLine.self, from: Data($0.utf8)).path }
        let twice = Dictionary(grouping: paths, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(twice.isEmpty, "\(twice.count) files have more than one outcome: \(twice.prefix(5))")
        #expect(Set(paths) == Set(written.keys), "\(Set(paths).symmetricDifference(written.keys).count) differ")
        let final = (try? String(contentsOf: Self.log(cli), encoding: .utf8)) ?? ""
        #expect(final.contains("Watched: 2024 files arrived"), "\(final.suffix(2_000))")
    }

    /// Writes each file given in two halves, `pause` seconds apart, through one open file.
    static let stalledWriter = #"""
        import sys, time
        pause, paths = float(sys.argv[1]), sys.argv[2:]
        pairs = list(zip(paths[0::2], paths[1::2]))
        opened = [(open(target, 'wb'), open(source, 'rb').read()) for source, target in pairs]
        for f, data in opened:
            f.write(data[:len(data) // 2]); f.flush()
        print('first halves written', flush=True)
        time.sleep(pause)
        for f, data in opened:
            f.write(data[len(data) // 2:]); f.close()
        print('closed', flush=True)
        """#

    @Test("A photo and two videos written in two halves 70 s apart: only the whole files are ever sent")
    func stalledWriters() throws {
        let (server, event, cli, hot, staging) = try Self.setUp("watch-stall")
        let sources = TemporaryFolder(at: staging.appendingPathComponent("sources"))
        let photo = TestEnvironment.repository.appendingPathComponent("samples/IMG_0002.jpg")
        let video = try Fixtures.video(
            in: sources, name: "clip.mp4", width: 640, height: 480, seconds: 4, creationTime: "2024-05-01T10:00:00Z")
        let quick = try Fixtures.video(
            in: sources, name: "quick.mp4", width: 640, height: 480, seconds: 5, creationTime: "2024-05-01T10:01:00Z",
            faststart: true)
        let targets = ["IMG_0002.jpg", "clip.mp4", "quick.mp4"].map { hot.appendingPathComponent($0) }
        let expected = Set(try [photo, video, quick].map { try Fixtures.sha256sum($0) })
        let watch = try Self.startWatch(cli, server, folder: hot)
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        let arguments = zip([photo, video, quick], targets).flatMap { [$0.path, $1.path] }
        let result = try runProgram("python3", ["-c", Self.stalledWriter, "70"] + arguments, timeout: 200)
        try #require(result.status == 0, "\(result.stderr)")
        try Self.wait("the three files on the server", timeout: 120) {
            try server.held(inEvent: event).count >= 3 || !watch.isRunning
        }
        let output = (try? String(contentsOf: Self.log(cli), encoding: .utf8)) ?? ""
        #expect(Self.stop(watch) == 0, "\(output.suffix(3_000))")
        // Nothing half: the server holds the three whole files, and nothing else.
        #expect(Set(try server.held(inEvent: event).keys) == expected)
        #expect(try server.sql("SELECT count(*) FROM photo") == "3")
        // Each file's one outcome: uploaded; the log said why it waited past the minute.
        let lines = try String(contentsOf: Self.report(cli), encoding: .utf8).split(separator: "\n")
        let entries = lines.compactMap { try? JSONDecoder().decode(FileLine.self, from: Data($0.utf8)) }
        #expect(entries.count == 3, "\(entries.map { "\($0.path) \($0.status)" })")
        #expect(entries.allSatisfy { $0.status == .uploaded }, "\(entries.map { "\($0.path) \($0.status)" })")
        for target in targets {
            #expect(
                output.contains("waiting: \(target.path) is open, unchanged and not whole"), "\(output.suffix(3_000))")
        }
    }

    @Test(
        "A watch stopped with SIGTERM exits 0 though a file of its run failed; idle, its status lines go on"
    )
    func stoppedWithFailures() throws {
        let (server, _, cli, hot, _) = try Self.setUp("watch-term")
        let watch = try Self.startWatch(cli, server, folder: hot)
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        // A JPEG whose scan is cut short: closed by its writer, read, failed in its own bytes.
        let sample = Array(
            try Data(contentsOf: TestEnvironment.repository.appendingPathComponent("samples/IMG_0004.jpg")))
        try Data(sample.prefix(600)).write(to: hot.appendingPathComponent("broken.jpg"))
        let outcome = Result {
            try Self.wait("the broken file's outcome", timeout: 60) {
                ((try? String(contentsOf: Self.report(cli), encoding: .utf8)) ?? "").contains("broken.jpg")
                    || !watch.isRunning
            }
        }
        if case .failure = outcome {
            let said = (try? String(contentsOf: Self.log(cli), encoding: .utf8)) ?? ""
            let report = (try? String(contentsOf: Self.report(cli), encoding: .utf8)) ?? "none"
            Issue.record("the watch said: \(said); its report: \(report)")
        }
        try outcome.get()
        // Idle, it still writes its status line every --stats (1 s), and the line is current.
        usleep(3_000_000)
        let idle = ((try? String(contentsOf: Self.log(cli), encoding: .utf8)) ?? "").split(separator: "\n")
        let failedAt = idle.lastIndex { $0.contains("broken.jpg") } ?? idle.endIndex
        let statusLines = idle[failedAt...].filter { $0.contains(" waiting") }
        #expect(statusLines.count >= 2, "\(idle.suffix(6))")
        #expect(statusLines.last?.contains("; 0 waiting") == true, "\(statusLines.last ?? "none")")
        let status = Self.stop(watch)
        let output = (try? String(contentsOf: Self.log(cli), encoding: .utf8)) ?? ""
        #expect(status == 0, "\(output.suffix(2_000))")
        #expect(output.contains("; 1 failed"), "\(output.suffix(2_000))")
    }
}

import Foundation
import IngestApp
import IngestTesting
import Testing

/// A watch started on a folder that already holds unsent photos (a night's card dump, a restart
/// after an outage): a photo taken now goes ahead of them.
extension WatchRunTests {
    @Test("A backlog of 300 photos and new ones arriving at 1 a second: the new ones go first, each photo once")
    func newestFirst() throws {
        // The server reads each upload slowly, so that the backlog lasts about half a minute.
        let server = try ReferenceServer(["--read-bytes-per-second", "150000"])
        let event = try server.addEvent(name: "Gala", start: "2000-01-01T00:00:00Z", end: "2100-01-01T00:00:00Z")
        let cli = CommandLine("watch-backlog")
        let (hot, staging) = (cli.folder.appending("hot"), cli.folder.appending("staging"))
        for folder in [hot, staging] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let written = try Self.makeBurst(in: staging, big: 0, ["backlog=300", "new=5"], bound: hot)
        #expect(written.count == 305)
        // The backlog is there before the watch: its walk finds it.
        try FileManager.default.moveItem(
            at: staging.appendingPathComponent("backlog"), to: hot.appendingPathComponent("backlog"))
        let watch = try Self.startWatch(cli, server, folder: hot)
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        let arriving = hot.appendingPathComponent("new")
        try FileManager.default.createDirectory(at: arriving, withIntermediateDirectories: false)
        for index in 0..<5 {
            let name = String(format: "IMG_%04d.jpg", index)
            try FileManager.default.moveItem(
                at: staging.appendingPathComponent("new/\(name)"), to: arriving.appendingPathComponent(name))
            usleep(1_000_000)
        }
        let expected = Set(written.values)
        var (held, count, changed) = (Set<String>(), -1, Date())
        while held != expected, watch.isRunning, Date().timeIntervalSince(changed) < 60 {
            held = Set(try server.held(inEvent: event).keys)
            if held.count != count { (count, changed) = (held.count, Date()) }
            usleep(500_000)
        }
        let output = (try? String(contentsOf: Self.log(cli), encoding: .utf8)) ?? ""
        #expect(held == expected, "\(expected.subtracting(held).count) never arrived; \(output.suffix(2_000))")
        #expect(Self.stop(watch) == 0, "\(output.suffix(2_000))")
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "305")

        // The report's lines come as files end: each new photo ended while the backlog still had
        // files to send (with the backlog first, only the backlog files still in flight would come after them).
        let lines = try String(contentsOf: Self.report(cli), encoding: .utf8).split(separator: "\n")
        let paths = lines.compactMap { try? JSONDecoder().decode(FileLine.self, from: Data($0.utf8)).path }
        #expect(paths.count == 305 && Set(paths) == Set(written.keys), "each file has one line")
        let lastOfBacklog = paths.lastIndex { $0.contains("/hot/backlog/") } ?? paths.endIndex
        let newOnes = paths.indices.filter { paths[$0].contains("/hot/new/") }
        let behind = newOnes.map { position in paths[position...].filter { $0.contains("/hot/backlog/") }.count }
        #expect(
            newOnes.count == 5 && newOnes.allSatisfy { $0 < lastOfBacklog },
            "backlog files after each new one: \(behind)")
        // The last new photo came about 5 s into a backlog of half a minute: well ahead of its end.
        #expect(behind.allSatisfy { $0 >= 20 }, "backlog files after each new one: \(behind)")
    }
}

import Foundation
import IngestApp
import IngestTesting
import Testing

/// A hot folder on a share: a FUSE mount (bindfs) stands in for NFS or SMB, where the kernel's
/// inotify sees only the writes that pass through this machine's mount.
extension WatchRunTests {
    @Test("A FUSE mount written underneath, as a NAS or a second PC writes a share: every photo arrives once, polled")
    func shareWrittenUnderneath() throws {
        let (server, event, cli, _, staging) = try Self.setUp("watch-share")
        let under = cli.folder.appending("under")
        let share = cli.folder.appending("share")
        for folder in [under, share] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let mount = try BindMount(under, at: share)
        defer { mount.unmount() }

        let watch = try Self.startWatch(cli, server, folder: share, ["--poll-interval", "1s"])
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        // Underneath the mount, as another machine writes: at a burst's pace, some in chunks
        // over three seconds, some moved in, half into a folder made meanwhile.
        let beneath = try Self.write(20, into: under, staging: staging, pace: 0.1)
        // And one through the mount, which inotify sees.
        let through = share.appendingPathComponent("through.jpg")
        try FileManager.default.copyItem(
            at: TestEnvironment.repository.appendingPathComponent("samples/IMG_0005.jpg"), to: through)
        var written: [String: String] = [:]
        for (path, sha256) in beneath { written[share.path + String(path.dropFirst(under.path.count))] = sha256 }
        written[through.path] = try Fixtures.sha256sum(through)
        let expected = Set(written.values)
        try Self.wait("every photo on the server", timeout: 120) {
            Set(try server.held(inEvent: event).keys).isSuperset(of: expected) || !watch.isRunning
        }
        let output = (try? String(contentsOf: Self.log(cli), encoding: .utf8)) ?? ""
        #expect(Self.stop(watch) == 0, "\(output.suffix(2_000))")
        #expect(output.contains("Polling \(share.path) (FUSE) every 1 s as well"), "\(output.suffix(2_000))")
        #expect(Set(try server.held(inEvent: event).keys) == expected)
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "\(expected.count)")
        // One outcome per file, under the path the watch was given: none read twice, none half.
        let lines = try String(contentsOf: Self.report(cli), encoding: .utf8).split(separator: "\n")
        let entries = lines.compactMap { try? JSONDecoder().decode(FileLine.self, from: Data($0.utf8)) }
        #expect(entries.count == written.count, "\(entries.map { "\($0.path) \($0.status)" })")
        for (path, sha256) in written {
            let mine = entries.filter { $0.path == path }
            #expect(mine.count == 1 && mine.first?.sha256 == sha256, "\(path): \(mine.map { "\($0.status)" })")
        }
    }
}

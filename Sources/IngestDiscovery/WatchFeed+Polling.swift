import Foundation
import IngestCore

/// Polling, where inotify is blind: on a share another machine writes to (NFS, SMB) or a FUSE
/// mount, the kernel reports only this machine's writes, and a photo the NAS or a second PC
/// writes there would never be seen. Such folders are listed every ``WatchFeed/Schedule-swift.struct/pollInterval`` as
/// well: one listing and one `stat` per file, what a re-run costs, and only what changed since
/// the last listing goes to the settle table (a file written meanwhile waits there, as any whose
/// writer the watch did not see, until it is quiet and whole). inotify stays on, for the writes
/// it does see.
extension WatchFeed.Session {
    /// Decides whether `path` is polled: by its file system, or as `--poll` and `--no-poll` say.
    mutating func decidePolling(_ path: String) {
        switch self.feed.schedule.polling {
        case .never: return
        case .everywhere: self.polled[path] = "--poll"
        case .whereBlind: if let name = BlindFileSystem.name(at: path) { self.polled[path] = name }
        }
    }

    /// Lists the polled folders; files new or changed since the last listing go to the table,
    /// new folders are followed, and files gone are forgotten.
    mutating func poll() {
        let now = ContinuousClock.now
        let wall = Date()
        var seen = Set<String>()
        for top in self.polledTops() {
            guard let start = self.folders[top] else { continue }
            let listed = self.discovery.folders(from: start) { folder in self.watchFolder(folder) }
            for (folder, files) in listed where self.polled[folder.path] != nil {
                self.folders[folder.path] = folder
                for (path, stamp) in files {
                    seen.insert(path)
                    guard self.polledStamps[path] != stamp else { continue }
                    self.polledStamps[path] = stamp
                    self.found(path, stamp: stamp, now: now, wall: wall)
                }
            }
        }
        self.polledStamps = self.polledStamps.filter { seen.contains($0.key) }
    }

    /// The polled folders that lie under no other polled folder: one listing each covers the rest.
    func polledTops() -> [String] {
        self.polled.keys.filter { path in
            var parent = (path as NSString).deletingLastPathComponent
            while parent.count > 1 {
                if self.polled[parent] != nil { return false }
                parent = (parent as NSString).deletingLastPathComponent
            }
            return true
        }.sorted()
    }

    /// Notes what the files handed on in polled folders are now, so that the next listing does not
    /// take a file the watch saw written (inotify sees this machine's writes there) for a new one.
    mutating func remember(_ paths: [String]) {
        guard !self.polled.isEmpty else { return }
        for path in paths where self.polled[(path as NSString).deletingLastPathComponent] != nil {
            if case .found(let status) = Discovery.status(path) { self.polledStamps[path] = status.stamp }
        }
    }

    /// What to say at the start: which folders are polled, and why.
    func pollingNotice() -> String? {
        let tops = self.polledTops()
        guard !tops.isEmpty else { return nil }
        let named = tops.prefix(3).map { "\($0) (\(self.polled[$0] ?? ""))" }.joined(separator: ", ")
        let more = tops.count > 3 ? " and \(tops.count - 3) more" : ""
        let why =
            self.feed.schedule.polling == .everywhere
            ? "as --poll asks"
            : "inotify does not see what other machines (or the folder under a FUSE mount) write there"
        return "Polling \(named)\(more) every \(WatchFeed.seconds(self.feed.schedule.pollInterval)) as well: \(why)"
    }
}

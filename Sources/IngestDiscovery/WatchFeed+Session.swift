import AsyncAlgorithms
import Foundation
import IngestContainers
import IngestCore

extension WatchFeed {
    /// One watch's state, owned by the task that follows the folders.
    struct Session {
        let feed: WatchFeed
        let discovery: Discovery
        let watch: FolderWatch
        var table: SettleTable
        /// Every folder followed, watched or not, by path.
        var folders: [String: Discovery.WatchedFolder] = [:]
        /// Folders that could not be watched: read again every `rescanInterval`.
        var unwatched: Set<String> = []
        var saidLimit = false
        /// Roots removed: looked for again each second.
        var gone: Set<String> = []
        /// Folders listed every `schedule.pollInterval` as well, each with why (its file system).
        var polled: [String: String] = [:]
        /// The files of polled folders as the last listing saw them: what differs is new.
        var polledStamps: [String: FileStamp] = [:]

        init(feed: WatchFeed, discovery: Discovery, watch: FolderWatch) {
            self.feed = feed
            self.discovery = discovery
            self.watch = watch
            self.table = SettleTable(settle: feed.schedule.settle)
        }

        /// Follows `folder` and the folders below it; with `found`, the files in them are new to
        /// the watch (a folder that appeared, or a rescan) and go into the table.
        mutating func watchTree(_ folder: Discovery.WatchedFolder, found: Bool) {
            // Each folder is watched before it is read (`entering`): a file created meanwhile is
            // in the listing, in the events, or in both (the table takes it once), never in neither.
            let listed = self.discovery.folders(from: folder) { folder in self.watchFolder(folder) }
            let now = ContinuousClock.now
            let wall = Date()
            for (folder, files) in listed {
                self.folders[folder.path] = folder
                let isPolled = self.polled[folder.path] != nil
                for (path, stamp) in files {
                    if isPolled { self.polledStamps[path] = stamp }
                    if found { self.found(path, stamp: stamp, now: now, wall: wall) }
                }
            }
        }

        /// Puts a watch on `folder`, unless it has one, and polls it where inotify is blind; says
        /// why when it cannot watch it.
        mutating func watchFolder(_ folder: Discovery.WatchedFolder) {
            guard !self.watch.isWatched(folder.path) else { return }
            self.decidePolling(folder.path)
            guard let error = self.watch.add(folder) else {
                self.unwatched.remove(folder.path)
                return
            }
            self.unwatched.insert(folder.path)
            if error == ENOSPC && !self.saidLimit {
                self.saidLimit = true
                self.feed.notice(
                    "warning: the inotify watch limit is reached (fs.inotify.max_user_watches): folders "
                        + "beyond it are read again every \(WatchFeed.seconds(self.feed.rescanInterval))")
            } else if error != ENOSPC {
                self.feed.notice("warning: cannot watch \(folder.path): \(FileSystem.message(error))")
            }
        }

        /// A file met by reading a folder, its writer unseen: one untouched for the quiet time of an
        /// abandoned file is complete (its close came before the watch, or was lost with an
        /// overflow); a younger one waits in the table, its quiet time counted from its last
        /// change, and is read once quiet and whole.
        mutating func found(_ path: String, stamp: FileStamp, now: ContinuousClock.Instant, wall: Date) {
            let age = wall.timeIntervalSince1970 - Double(stamp.modifiedNanoseconds) / 1e9
            if age >= self.table.abandoned.seconds {
                if !self.table.holds(path) { self.table.closed(path, at: now) }
            } else {
                self.table.found(path, stamp: stamp, changed: now - .seconds(max(0, age)))
            }
        }

        /// Follows the folders until `shouldStop`.
        mutating func run(
            roots: [String], into outbox: WatchOutbox, shouldStop: @Sendable () -> Bool
        ) async {
            let clock = ContinuousClock()
            var lastRescan = clock.now
            var lastLook = clock.now
            var lastPoll = clock.now
            while !shouldStop() {
                let events = self.watch.events()
                let now = clock.now
                for event in events { self.apply(event, roots: roots, now: now) }
                if now - lastLook >= .seconds(1) {
                    lastLook = now
                    for root in self.gone where WatchFeed.isFolder(root) {
                        self.gone.remove(root)
                        self.feed.notice("\(root) is back: reading it again")
                        self.watchTree(Discovery.WatchedFolder(root: root), found: true)
                    }
                }
                if !self.polled.isEmpty && now - lastPoll >= self.feed.schedule.pollInterval {
                    lastPoll = now
                    self.poll()
                }
                if !self.unwatched.isEmpty && now - lastRescan >= self.feed.rescanInterval {
                    lastRescan = now
                    for path in self.unwatched.sorted() {
                        if let folder = self.folders[path] { self.watchTree(folder, found: true) }
                    }
                }
                let due = self.table.due(
                    at: clock.now,
                    stamp: { path in
                        if case .found(let status) = Discovery.status(path), status.kind == S_IFREG {
                            status.stamp
                        } else {
                            nil
                        }
                    }, judge: Completeness.of(path:),
                    held: { path, reason in
                        self.feed.notice(
                            "waiting: \(path) is open, unchanged and not whole (\(reason)): it is read once its "
                                + "writer closes it or writes the rest")
                    })
                self.feed.latency.holding(self.table.heldCount)
                self.send(due, into: outbox)
                if events.isEmpty && due.isEmpty {
                    try? await Task.sleep(for: self.feed.eventInterval)
                }
            }
        }

        /// What one event changes.
        mutating func apply(_ event: FolderWatch.Event, roots: [String], now: ContinuousClock.Instant) {
            switch event {
            case .overflow:
                self.feed.notice(
                    "warning: the kernel dropped file events (its queue overflowed): reading the folders again")
                for root in roots where WatchFeed.isFolder(root) {
                    self.watchTree(Discovery.WatchedFolder(root: root), found: true)
                }
            case .folderGone(let folder):
                self.folders[folder.path] = nil
                if roots.contains(folder.path) {
                    self.gone.insert(folder.path)
                    self.feed.notice("warning: \(folder.path) was removed or moved away; watching for it to come back")
                }
            case .entry(let change, let folder):
                let join = { (name: String) in folder.path == "/" ? "/" + name : folder.path + "/" + name }
                switch change {
                case .closed(let name): self.table.closed(join(name), at: now)
                case .written(let name): self.table.written(join(name), at: now)
                case .removed(let name): self.table.removed(join(name))
                case .folderAppeared(let name):
                    if let subfolder = self.discovery.subfolder(name, of: folder) {
                        self.watchTree(subfolder, found: true)
                    }
                }
            }
        }

        /// Sends the files that are complete, one batch per folder, as the walk would make them.
        mutating func send(_ due: [(path: String, since: ContinuousClock.Instant)], into outbox: WatchOutbox) {
            guard !due.isEmpty else { return }
            self.remember(due.map(\.path))
            var byFolder: [String: [(name: String, since: ContinuousClock.Instant)]] = [:]
            for (path, since) in due {
                guard let slash = path.lastIndex(of: "/") else { continue }
                let folder = slash == path.startIndex ? "/" : String(path[..<slash])
                byFolder[folder, default: []].append((String(path[path.index(after: slash)...]), since))
            }
            for (path, names) in byFolder.sorted(by: { $0.key < $1.key }) {
                guard let folder = self.folders[path] else { continue }
                let items = self.discovery.items(named: Set(names.map(\.name)), in: folder)
                guard !items.isEmpty else { continue }
                let arrived = Dictionary(names.map { (folder.path + "/" + $0.name, $0.since) }) { first, _ in first }
                var companions: Set<String> = []
                for item in items {
                    let itemPath = item.path
                    if let since = arrived[itemPath] {
                        self.feed.latency.arrived(itemPath, at: since)
                    } else if item.file?.member == nil {
                        companions.insert(itemPath)
                    }
                }
                outbox.put(DiscoveryBatch(items: items, isLast: false, companions: companions))
            }
        }
    }
}

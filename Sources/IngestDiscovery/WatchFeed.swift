import AsyncAlgorithms
import Foundation
import IngestContainers
import IngestCore

/// What `watch` adds to a run: the given folders are watched before the walk starts, and after
/// it every file that arrives is sent on, in batches of the walk's kind, once it is complete
/// (``SettleTable``). New folders are watched as they appear; when the kernel dropped events
/// (its queue overflowed) or a root came back after it was removed, the folders are read again,
/// which costs what a re-run costs: the catalog knows the files already done.
public struct WatchFeed: Sendable {
    /// How long a file that is not closed must stay unchanged before it is read.
    public var settle: Duration
    public var latency: WatchLatency
    /// Said to the user as it happens: what is watched, why the folders are read again.
    public var notice: @Sendable (String) -> Void
    /// How often the watch looks at the kernel's events when there were none.
    public var pollInterval: Duration = .milliseconds(100)
    /// How often folders that could not be watched (the watch limit) are read again.
    public var rescanInterval: Duration = .seconds(30)
    /// How often what the destination holds is fetched again (`--refresh`).
    public var refreshInterval: Duration = .seconds(300)
    /// Run every `refreshInterval`: the caller's look at the server's events (it ends the run when
    /// they changed, to start again with the new ones).
    public var refreshEvents: (@Sendable () async -> Void)?
    /// Run every `refreshInterval`: the pipeline's own, each event's hash set fetched again.
    package var refreshHashSets: (@Sendable () async -> Void)?
    /// Whether a hash set was found out of date (an upload answered "duplicate"): the refresh
    /// then comes at once, not at the end of the period, but at most once every ``soonestRefresh``.
    package var hashSetsStale: (@Sendable () -> Bool)?
    /// A burst of files another client uploaded too gives one refresh, not one a file.
    var soonestRefresh: Duration = .seconds(10)

    public init(settle: Duration, latency: WatchLatency, notice: @escaping @Sendable (String) -> Void) {
        self.settle = settle
        self.latency = latency
        self.notice = notice
    }

    /// Watches the folders among `discovery`'s roots, runs `walk` (the run's own, which must not
    /// finish the channel), then sends what arrives into `channel` until `shouldStop`, and
    /// finishes the channel. Returns what `walk` returned.
    package func follow(
        _ discovery: Discovery, into channel: AsyncChannel<DiscoveryBatch>, shouldStop: @escaping @Sendable () -> Bool,
        walk: () async -> Discovery.Tally
    ) async -> Discovery.Tally {
        defer { channel.finish() }
        let watch: FolderWatch
        do {
            watch = try FolderWatch()
        } catch {
            self.notice("error: \(error.message); the folders are read once")
            return await walk()
        }
        var session = Session(feed: self, discovery: discovery, watch: watch)
        let roots = discovery.roots.map(Discovery.absolute).filter(Self.isFolder)
        for root in roots { session.watchTree(Discovery.WatchedFolder(root: root), found: false) }
        let tally = await walk()
        self.notice(
            "Watching \(session.watch.count) folder\(session.watch.count == 1 ? "" : "s") for new files "
                + "(settle \(Self.seconds(self.settle)); Ctrl-C to stop)")
        // The refreshes run beside the watch, so that a slow server never holds up a file; the
        // batches go through an outbox, so that a busy pipeline never holds up the watch.
        async let refreshed: Void = self.refreshing(until: shouldStop)
        let outbox = WatchOutbox()
        async let delivered: Void = outbox.deliver(into: channel)
        await session.run(roots: roots, into: outbox, shouldStop: shouldStop)
        outbox.finish()
        await delivered
        await refreshed
        return tally
    }

    /// Runs the refreshes every `refreshInterval` until `shouldStop`.
    func refreshing(until shouldStop: @escaping @Sendable () -> Bool) async {
        guard self.refreshEvents != nil || self.refreshHashSets != nil else { return }
        let clock = ContinuousClock()
        var last = clock.now
        while !shouldStop() {
            try? await Task.sleep(for: .milliseconds(200))
            let since = clock.now - last
            var stale = false
            if since < self.refreshInterval {
                guard since >= self.soonestRefresh, self.hashSetsStale?() == true else { continue }
                stale = true
            }
            guard !shouldStop() else { continue }
            last = clock.now
            if stale {
                self.notice(
                    "An upload was answered \"duplicate\" (another client sent those bytes since): "
                        + "fetching what the server holds again")
            }
            await self.refreshHashSets?()
            await self.refreshEvents?()
        }
    }

    static func isFolder(_ path: String) -> Bool {
        if case .found(let status) = Discovery.status(path) { status.kind == S_IFDIR } else { false }
    }

    static func seconds(_ duration: Duration) -> String {
        let seconds = duration.seconds
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }

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

        init(feed: WatchFeed, discovery: Discovery, watch: FolderWatch) {
            self.feed = feed
            self.discovery = discovery
            self.watch = watch
            self.table = SettleTable(settle: feed.settle)
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
                guard found else { continue }
                for file in files { self.found(file, now: now, wall: wall) }
            }
        }

        /// Puts a watch on `folder`, unless it has one; says why when it cannot.
        mutating func watchFolder(_ folder: Discovery.WatchedFolder) {
            guard !self.watch.isWatched(folder.path) else { return }
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
        mutating func found(_ path: String, now: ContinuousClock.Instant, wall: Date) {
            guard case .found(let status) = Discovery.status(path) else { return }
            let age = wall.timeIntervalSince1970 - Double(status.stamp.modifiedNanoseconds) / 1e9
            if age >= self.table.abandoned.seconds {
                if !self.table.holds(path) { self.table.closed(path, at: now) }
            } else {
                self.table.found(path, stamp: status.stamp, changed: now - .seconds(max(0, age)))
            }
        }

        /// Follows the folders until `shouldStop`.
        mutating func run(
            roots: [String], into outbox: WatchOutbox, shouldStop: @Sendable () -> Bool
        ) async {
            let clock = ContinuousClock()
            var lastRescan = clock.now
            var lastLook = clock.now
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
                    try? await Task.sleep(for: self.feed.pollInterval)
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
        func send(_ due: [(path: String, since: ContinuousClock.Instant)], into outbox: WatchOutbox) {
            guard !due.isEmpty else { return }
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
                    let itemPath =
                        switch item {
                        case .file(let file): file.path
                        case .problem(let path, _, _): path
                        }
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

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
    /// The periods and polling the user sets (`--settle`, `--refresh`, `--poll`, `--poll-interval`).
    public var schedule: Schedule
    public var latency: WatchLatency
    /// Said to the user as it happens: what is watched, why the folders are read again.
    public var notice: @Sendable (String) -> Void
    /// How often the watch looks at the kernel's events when there were none.
    public var eventInterval: Duration = .milliseconds(100)
    /// How often folders that could not be watched (the watch limit) are read again.
    public var rescanInterval: Duration = .seconds(30)
    /// Run every `schedule.refreshInterval`: the caller's look at the server's events (it ends the run when
    /// they changed, to start again with the new ones).
    public var refreshEvents: (@Sendable () async -> Void)?
    /// Run every `schedule.refreshInterval`: the pipeline's own, each event's hash set fetched again.
    package var refreshHashSets: (@Sendable () async -> Void)?
    /// Whether a hash set was found out of date (an upload answered "duplicate"): the refresh
    /// then comes at once, not at the end of the period, but at most once every ``soonestRefresh``.
    package var hashSetsStale: (@Sendable () -> Bool)?
    /// A burst of files another client uploaded too gives one refresh, not one a file.
    var soonestRefresh: Duration = .seconds(10)

    /// What the user sets of a watch: each field's default is the option's.
    public struct Schedule: Sendable, Equatable {
        /// How long a file that is not closed must stay unchanged before it is read (`--settle`).
        public var settle: Duration = .seconds(2)
        /// How often what the destination holds is fetched again (`--refresh`).
        public var refreshInterval: Duration = .seconds(300)
        /// Which folders are polled besides inotify: where it is blind (the default), all, none.
        public var polling: Polling = .whereBlind
        /// How often polled folders are listed (`--poll-interval`).
        public var pollInterval: Duration = .seconds(5)

        public init() {}
    }

    /// Which folders a watch lists on a period, besides following inotify.
    public enum Polling: Sendable, Equatable {
        /// Those on a file system where inotify sees only this machine's writes (``BlindFileSystem``).
        case whereBlind
        /// Every folder (`--poll`).
        case everywhere
        /// None: inotify is trusted everywhere (`--no-poll`).
        case never
    }

    public init(_ schedule: Schedule, latency: WatchLatency, notice: @escaping @Sendable (String) -> Void) {
        self.schedule = schedule
        self.latency = latency
        self.notice = notice
    }

    /// Watches the folders among `discovery`'s roots, then runs `walk` (the run's own: its
    /// batches go into `channel`, which it finishes) while what arrives goes into `arrivals`,
    /// batch by batch, until `shouldStop`. Returns what `walk` returned.
    ///
    /// The arrivals are followed from the start, beside the walk, so that a photo taken now is
    /// not held behind a backlog the walk found (a night's card dump, a restart after an
    /// outage): the pipeline takes an arrival before the backlog's next file.
    package func follow(
        _ discovery: Discovery, arrivals: WatchOutbox, shouldStop: @escaping @Sendable () -> Bool,
        walk: () async -> Discovery.Tally
    ) async -> Discovery.Tally {
        defer { arrivals.finish() }
        let watch: FolderWatch
        do {
            watch = try FolderWatch()
        } catch {
            self.notice("error: \(error.message); the folders are read once")
            return await walk()
        }
        var session = Session(feed: self, discovery: discovery, watch: watch)
        let given = discovery.roots.map(Discovery.absolute)
        let roots = given.filter(Self.isFolder)
        for root in roots { session.watchTree(Discovery.WatchedFolder(root: root), found: false) }
        for path in given where !roots.contains(path) {
            self.notice("\(path) is not a folder: it is ingested once, and is not watched")
        }
        self.notice(
            "Watching \(session.folders.count) folder\(session.folders.count == 1 ? "" : "s") for new files "
                + "(settle \(Self.seconds(self.schedule.settle)); Ctrl-C to stop)")
        if let polled = session.pollingNotice() { self.notice(polled) }
        // The refreshes run beside the watch, so that a slow server never holds up a file; the
        // batches go through an outbox, so that a busy pipeline never holds up the watch.
        async let refreshed: Void = self.refreshing(until: shouldStop)
        async let followed: Void = { [session] in
            var session = session
            await session.run(roots: roots, into: arrivals, shouldStop: shouldStop)
        }()
        let tally = await walk()
        await followed
        await refreshed
        return tally
    }

    /// Runs the refreshes every `schedule.refreshInterval` until `shouldStop`.
    func refreshing(until shouldStop: @escaping @Sendable () -> Bool) async {
        guard self.refreshEvents != nil || self.refreshHashSets != nil else { return }
        let clock = ContinuousClock()
        var last = clock.now
        while !shouldStop() {
            try? await Task.sleep(for: .milliseconds(200))
            let since = clock.now - last
            var stale = false
            if since < self.schedule.refreshInterval {
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
}

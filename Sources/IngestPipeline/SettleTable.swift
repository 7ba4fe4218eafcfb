import IngestCore

/// The files a watch has seen being written, until each is complete: closed after writing (or
/// moved in whole). A file whose writer the watch saw (it created or wrote the file) waits for
/// its close: a camera's upload over Wi-Fi can stall for seconds in the middle of a file, and a
/// file read then is half a photo. One whose writer it did not see (found in a folder that just
/// appeared) is complete once unchanged in size and time for the settle time, and so is a seen
/// one its writer keeps open and quiet for ``abandoned``. A file is never handed on while it may
/// still grow, and one of a pair (a Live Photo's clip, a raw's JPEG) waits up to the settle time
/// for its partner, so that the two meet in one batch.
public struct SettleTable {
    public let settle: Duration
    /// How long a file seen being written, never closed, must stay unchanged: 30 settle times.
    public var abandoned: Duration { max(self.settle * 30, .seconds(60)) }

    struct Pending {
        /// When it was last seen changing (or first seen).
        var changed: ContinuousClock.Instant
        /// When it was closed after writing, or moved in; nil while it may be open.
        var closed: ContinuousClock.Instant?
        /// Its size and time at the last sweep, to tell a quiet file from one still written.
        var stamp: FileStamp?
        /// Whether the watch saw it created or written: its writer's close will come.
        var writerSeen = false
    }

    private var pending: [String: Pending] = [:]

    public init(settle: Duration) {
        self.settle = settle
    }

    /// Files still waiting.
    public var count: Int { self.pending.count }

    /// `path` was closed after writing, or moved in: complete now.
    public mutating func closed(_ path: String, at now: ContinuousClock.Instant) {
        self.pending[path, default: Pending(changed: now)].closed = now
    }

    /// `path` was created or written to: complete once closed (or quiet for ``abandoned``).
    public mutating func written(_ path: String, at now: ContinuousClock.Instant) {
        self.changed(path, at: now)
        self.pending[path]?.writerSeen = true
    }

    /// `path` was found in a folder that just appeared, recently changed, its writer unseen:
    /// complete once closed, or quiet for the settle time.
    public mutating func changed(_ path: String, at now: ContinuousClock.Instant) {
        self.pending[path, default: Pending(changed: now)].changed = now
        self.pending[path]?.closed = nil
    }

    /// `path` is gone (deleted, or moved away).
    public mutating func removed(_ path: String) {
        self.pending[path] = nil
    }

    /// The files complete at `now`, by path, each with when it became complete; they leave the
    /// table. `stamp` says what a file is now (nil when it is gone): a file that is not closed is
    /// complete when its stamp has not changed for the settle time.
    public mutating func due(
        at now: ContinuousClock.Instant, stamp: (String) -> FileStamp?
    ) -> [(path: String, since: ContinuousClock.Instant)] {
        var complete: [String: ContinuousClock.Instant] = [:]
        var open = Set<String>()
        for (path, var file) in self.pending {
            if let closed = file.closed {
                complete[path] = closed
                continue
            }
            guard let current = stamp(path) else {
                self.pending[path] = nil
                continue
            }
            if current != file.stamp {
                file.stamp = current
                file.changed = now
                self.pending[path] = file
            }
            let quiet = file.writerSeen ? self.abandoned : self.settle
            if now - file.changed >= quiet {
                complete[path] = file.changed + quiet
            } else if let stem = Discovery.stem(of: path) {
                open.insert(stem)
            }
        }
        var due: [(path: String, since: ContinuousClock.Instant)] = []
        for (path, since) in complete {
            // One of a pair waits for its partner still being written, up to the settle time.
            if let stem = Discovery.stem(of: path), open.contains(stem), now - since < self.settle { continue }
            self.pending[path] = nil
            due.append((path, since))
        }
        return due.sorted { $0.path < $1.path }
    }
}

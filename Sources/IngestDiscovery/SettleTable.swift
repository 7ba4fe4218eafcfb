import IngestContainers
import IngestCore

/// The files a watch has seen being written, until each is complete: closed after writing (or
/// moved in whole). A file whose writer the watch saw (it created or wrote the file) waits for
/// its close: a camera's upload over Wi-Fi can stall for minutes in the middle of a file, and a
/// file read then is half a photo. One whose writer it did not see (found in a folder that just
/// appeared) may be complete once unchanged in size and time for the settle time, and so may a
/// seen one its writer keeps open and quiet for ``abandoned``; either is handed on only when its
/// own structure says it is whole (``Completeness``), and held, with the reason, while it is cut
/// short. A file is never handed on while it may still grow, and one of a pair (a Live Photo's
/// clip, a raw's JPEG) waits up to the settle time for its partner, so that the two meet in one
/// batch.
public struct SettleTable {
    public let settle: Duration
    /// How long a file seen being written, never closed, must stay unchanged before its structure
    /// is looked at: 30 settle times, and at least a minute. A writer that dies closes its files
    /// (the kernel does), so an open file quiet this long has a writer that hangs (an FTP server
    /// whose client went away, a share that stopped answering); before then a stall is taken for
    /// a slow link, and the file is not opened at all.
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
        /// Why it is held though quiet: its structure is cut short. Judged again when it changes.
        var held: String?
    }

    private var pending: [String: Pending] = [:]

    public init(settle: Duration) {
        self.settle = settle
    }

    /// Files still waiting.
    public var count: Int { self.pending.count }

    /// Whether `path` waits in the table.
    public func holds(_ path: String) -> Bool { self.pending[path] != nil }

    /// How many files are held because they are not whole.
    public var heldCount: Int { self.pending.values.count { $0.held != nil } }

    /// Files quiet and not closed, held because they are not whole, with the reason.
    public var held: [(path: String, reason: String)] {
        self.pending.compactMap { path, file in file.held.map { (path, $0) } }.sorted { $0.path < $1.path }
    }

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

    /// `path` was found by reading its folder, as `stamp` says, last changed at `changed` by its
    /// own time: its quiet time is counted from then. A file the table holds already is left as
    /// its events made it.
    public mutating func found(_ path: String, stamp: FileStamp, changed: ContinuousClock.Instant) {
        guard self.pending[path] == nil else { return }
        self.pending[path] = Pending(changed: changed, stamp: stamp)
    }

    /// `path` is gone (deleted, or moved away).
    public mutating func removed(_ path: String) {
        self.pending[path] = nil
    }

    /// The files complete at `now`, by path, each with when it became complete; they leave the
    /// table. `stamp` says what a file is now (nil when it is gone): a file that is not closed may
    /// be complete when its stamp has not changed for its quiet time, and is then handed on only
    /// if `judge` finds it whole (or cannot tell); one cut short is held, and `held` is told once
    /// each time it is found so.
    public mutating func due(
        at now: ContinuousClock.Instant, stamp: (String) -> FileStamp?,
        judge: (String) -> Completeness? = { _ in .unknown },
        held: (_ path: String, _ reason: String) -> Void = { _, _ in }
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
                file.held = nil
                self.pending[path] = file
            }
            let quiet = file.writerSeen ? self.abandoned : self.settle
            guard now - file.changed >= quiet, file.held == nil else {
                if let stem = Discovery.stem(of: path) { open.insert(stem) }
                continue
            }
            if case .cut(let reason)? = judge(path) {
                self.pending[path]?.held = reason
                held(path, reason)
                continue
            }
            complete[path] = file.changed + quiet
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

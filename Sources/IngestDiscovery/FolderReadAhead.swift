import IngestCore

/// The folders a walk enters next, read ahead of it on other threads, so that one core's
/// `stat` calls are not the whole of a re-run: the walk visits folders in order, one at a time,
/// while the next few are read.
///
/// It mirrors the walk's stack of entries still to visit, keeping only the folders, in the same
/// order; the walk takes a folder's reading when it comes to it, or reads the folder itself
/// when none was started (then nothing is lost but time).
struct FolderReadAhead {
    let discovery: Discovery
    /// The root the folders lie under.
    let base: String
    /// How many folders are read at once.
    let width: Int
    /// The folders still to visit, the next last, as the walk's own stack holds them.
    private var upcoming: [Discovery.Entry] = []
    /// By path, compared byte for byte (two names may differ only in normalization).
    private var reading: [PathKey: Task<ListedFolder, Never>] = [:]

    init(_ discovery: Discovery, base: String, width: Int) {
        self.discovery = discovery
        self.base = base
        self.width = width
    }

    /// Notes the entries the walk pushed (in its push order) and starts reading the next folders.
    mutating func pushed(_ entries: [Discovery.Entry]) {
        for entry in entries where entry.status?.isFolder == true && entry.member == nil { self.upcoming.append(entry) }
        for entry in self.upcoming.suffix(self.width).reversed() where self.reading[PathKey(entry.path)] == nil {
            if case .found(let status)? = entry.status, self.discovery.excluded.contains(status.key) { continue }
            let (discovery, base, path, scopes) = (self.discovery, self.base, entry.path, entry.scopes)
            self.reading[PathKey(path)] = Task { discovery.list(path, base: base, scopes: scopes) }
        }
    }

    /// The reading of the folder `entry` the walk has come to, if one was started.
    mutating func take(_ entry: Discovery.Entry) async -> ListedFolder? {
        if let last = self.upcoming.last, PathKey(last.path) == PathKey(entry.path) { self.upcoming.removeLast() }
        return await self.reading.removeValue(forKey: PathKey(entry.path))?.value
    }

    /// Waits for the readings still running (a walk stopped early leaves some).
    mutating func finish() async {
        for task in self.reading.values { _ = await task.value }
        self.reading = [:]
        self.upcoming = []
    }
}

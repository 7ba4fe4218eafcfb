import AsyncAlgorithms
import Foundation
import IngestContainers
import IngestCore
import IngestHashing

/// Stage 0: walks the given files and folders and streams what it finds in sorted batches.
///
/// Recursive. It follows symbolic links, but never into a folder it has already entered, which
/// is what makes a link loop finite. It skips hidden entries unless asked and what the
/// ``ExclusionRules`` name (by name alone: an excluded entry is never opened), and never descends
/// into the folders it is told to exclude (the archive itself may lie under an input folder).
public struct Discovery: Sendable {
    public var roots: [String] {
        didSet { self.rootFolders = Self.folders(holding: self.roots) }
    }
    /// The folders the roots lie in, made absolute once rather than for each folder listed: a
    /// folder holding a root is never sealed (``seal(of:folder:base:inTakeout:)``).
    private(set) var rootFolders: Set<PathKey>
    public var includeHidden: Bool
    public var rules: ExclusionRules
    /// Folders never walked into, and files never taken, by (device, inode).
    public var excluded: Set<DeviceInode>
    public var batchSize: Int
    /// Only the files of this shard are found (others are not this process's to report).
    public var shard: Shard?
    /// Whether a photo Google Takeout says was in the bin is taken (`--include-trashed`).
    public var includeTrashed = false
    /// Folders read at once (``FolderReadAhead``); 1: each folder is read when the walk comes to it.
    public var listingThreads = 1
    /// Whether each folder of plain files gets a ``FolderSeal`` in its batch (a run with a
    /// catalog): the run seals it when every file is found done.
    public var sealsFolders = false
    /// The digest an earlier run sealed for a folder, by its path; a folder whose listing has
    /// that digest now is settled, and its files are counted, not sent. Nil: nothing is settled
    /// (a run that reports each unchanged file).
    public var sealedDigest: (@Sendable (String) -> String?)?

    public struct DeviceInode: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// Counts of what the walk passed over without reporting one by one.
    public struct Tally: Sendable, Equatable {
        public var hiddenEntries = 0
        /// Entries left out by an exclusion rule, by the rule's glob.
        public var excluded: [String: Int] = [:]
        /// Files found with an XMP sidecar beside them.
        public var sidecars = 0
        /// Zip files walked into.
        public var zips = 0
        /// Files in a Google Takeout, by the rule that paired each with its JSON.
        public var takeoutPaired: [TakeoutPairing.Rule: Int] = [:]
        /// Files in a Google Takeout that no JSON pairs with.
        public var takeoutWithoutJSON = 0
        /// JSONs of a Google Takeout that no file pairs with (an album's `metadata.json` is one).
        public var takeoutLoneJSON = 0
        /// Files in an iCloud export's folders dated by a `Photo Details.csv` row, and those with none.
        public var icloudDated = 0
        public var icloudWithoutRow = 0
        /// The roots walked to their end that yielded no file at all (an empty folder, or one
        /// holding only folders and hidden entries: an unmounted share's mount point). A file of
        /// another shard, or one the exclusion rules leave out, counts as found.
        public var filelessRoots: [String] = []

        public init(hiddenEntries: Int = 0, excluded: [String: Int] = [:]) {
            self.hiddenEntries = hiddenEntries
            self.excluded = excluded
        }
    }

    public init(
        roots: [String], includeHidden: Bool, rules: ExclusionRules = ExclusionRules(),
        excluding excludedPaths: [String] = [], batchSize: Int = 256, shard: Shard? = nil
    ) {
        self.roots = roots
        self.rootFolders = Self.folders(holding: roots)
        self.includeHidden = includeHidden
        self.rules = rules
        self.batchSize = batchSize
        self.shard = shard
        self.excluded = Set(
            excludedPaths.compactMap { path in
                guard case .found(let status) = Self.status(path) else { return nil }
                return status.key
            })
    }

    /// A file's path without its extension, lower-cased: files that share it, in one folder, may be
    /// a pair. Nil for a name with no extension.
    public static func stem(of path: String) -> String? {
        Self.extensionDot(in: path).map { path[..<$0].lowercased() }
    }

    /// The dot before the extension of the path's last name; nil when the name has none (a
    /// leading dot is part of the name).
    static func extensionDot(in path: String) -> String.Index? {
        let name = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path.lastIndex(of: "."), dot > name else { return nil }
        return dot
    }

    /// Walks every root, sending batches into `channel` (waiting when the consumer is behind),
    /// and finishes the channel at the end unless `finishing` is off (a watch goes on sending).
    /// Stops early when `shouldStop` turns true.
    public func walk(
        into channel: AsyncChannel<DiscoveryBatch>, shouldStop: @Sendable () -> Bool, finishing: Bool = true
    ) async -> Tally {
        var batch: [DiscoveryItem] = []
        // Seals and settled folders go with the next batch sent: a seal never after its files.
        var seals: [FolderSeal] = []
        var settled: [FolderSeal] = []
        var settledFiles = 0
        var tally = Tally()
        var state = WalkState()
        for root in self.roots where ZipMember.isZip(root) {
            let path = Self.absolute(root)
            state.takeout.add(path, status: Self.status(path))
        }
        func send(_ items: [DiscoveryItem], isLast: Bool = false) async {
            await channel.send(DiscoveryBatch(items: items, isLast: isLast, seals: seals, settled: settled))
            (seals, settled, settledFiles) = ([], [], 0)
        }
        func emit(_ item: DiscoveryItem) async {
            batch.append(item)
            if batch.count >= self.batchSize {
                // Files that may be a pair (one name, several extensions: sorted, they are
                // neighbours) stay in one batch: the files of the last name wait for the next.
                let stem = batch.last?.file.flatMap { Self.stem(of: $0.path) }
                var cut = batch.count
                while let stem, cut > 1, batch[cut - 1].file.flatMap({ Self.stem(of: $0.path) }) == stem { cut -= 1 }
                if cut == 1 { cut = batch.count }
                await send(Array(batch[..<cut]))
                batch.removeSubrange(..<cut)
            }
        }
        for root in self.roots {
            let base = Self.absolute(root)
            // Each entry with what `stat` said of it, learnt from its folder's descriptor when the
            // folder was read (nil for a root): one short lookup per file instead of its whole path.
            // A file given alone is taken as it is: its folder's JSONs are not looked at.
            var pending: [Entry] = [Entry(path: base, status: nil, scopes: [], sidecar: nil)]
            var yielded = false
            var stopped = false
            var ahead = self.listingThreads > 1 ? FolderReadAhead(self, base: base, width: self.listingThreads) : nil
            while let entry = pending.popLast() {
                if shouldStop() {
                    stopped = true
                    break
                }
                let listed = entry.status?.isFolder == true ? await ahead?.take(entry) : nil
                let visit = self.visit(entry, base: base, state: &state, listed: listed)
                tally.hiddenEntries += visit.hidden
                if !visit.excluded.isEmpty { tally.excluded.merge(visit.excluded, uniquingKeysWith: +) }
                tally.sidecars += visit.sidecars
                tally.zips += visit.zips
                if !visit.takeoutPaired.isEmpty { tally.takeoutPaired.merge(visit.takeoutPaired, uniquingKeysWith: +) }
                tally.takeoutWithoutJSON += visit.takeoutWithoutJSON
                tally.takeoutLoneJSON += visit.takeoutLoneJSON
                tally.icloudDated += visit.icloudDated
                tally.icloudWithoutRow += visit.icloudWithoutRow
                // A file, one of another shard, or one the user's rules leave out: the root is not
                // empty. What the default rules leave out (a desktop's .DS_Store, a NAS's thumbnail
                // folders) is no photo; a walk problem (a folder that cannot be read) is said as such.
                // Once one is found, the rest of the root's entries are not asked.
                if !yielded
                    && (visit.item?.file != nil || visit.otherShard
                        || visit.excluded.keys.contains(where: { !ExclusionRules.defaultGlobs.contains($0) }))
                {
                    yielded = true
                }
                if let seal = visit.seal {
                    if visit.settled {
                        settled.append(seal)
                        settledFiles += seal.files
                        yielded = true
                    } else {
                        seals.append(seal)
                    }
                }
                if let item = visit.item { await emit(item) }
                // Settled folders are counted as they are found, a batch's worth at a time.
                if settledFiles >= self.batchSize { await send([]) }
                pending += visit.children
                ahead?.pushed(visit.children)
            }
            await ahead?.finish()
            if !yielded && !stopped { tally.filelessRoots.append(base) }
        }
        await send(batch, isLast: true)
        if finishing { channel.finish() }
        return tally
    }

    /// An entry still to visit: its path, what `stat` said of it when its folder was read (nil
    /// for a root), the ignore files of the folders above it, and its sidecar.
    struct Entry {
        var path: String
        var status: Status?
        var scopes: [IgnoreScope]
        /// Whether it lies in a Google Takeout's folder, where JSONs describe files.
        var inTakeout = false
        /// Whether its folder has an iCloud `Photo Details.csv`, which dates its files.
        var inICloud = false
        /// Its sidecar, zip entry and note, boxed as a file's are (most entries have none).
        private var attachments: Attachments?

        init(
            path: String, status: Status?, scopes: [IgnoreScope], sidecar: Sidecar?, member: ZipMember? = nil,
            inTakeout: Bool = false, inICloud: Bool = false, note: String? = nil
        ) {
            self.path = path
            self.status = status
            self.scopes = scopes
            self.inTakeout = inTakeout
            self.inICloud = inICloud
            self.attachments = Attachments.of(sidecar: sidecar, member: member, note: note)
        }

        var sidecar: Sidecar? {
            get { self.attachments?.sidecar }
            set { self.attachments = Attachments.of(sidecar: newValue, member: self.member, note: self.note) }
        }
        /// The zip entry it is, for a file inside a zip file.
        var member: ZipMember? { self.attachments?.member }
        /// For an iCloud CSV: what became of it (read for how many files, or why not).
        var note: String? {
            get { self.attachments?.note }
            set { self.attachments = Attachments.of(sidecar: self.sidecar, member: self.member, note: newValue) }
        }
    }

    /// What a walk keeps as it goes: the folders and zip files entered, and the Takeout JSONs of
    /// the zip files met.
    struct WalkState {
        var entered = Set<DeviceInode>()
        var takeout = TakeoutIndex()
    }

    struct DiscoveryError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// `path` relative to the root it was found under; a root that is a file is its own name.
    static func relative(_ path: String, to base: String) -> String {
        if path == base { return String(base.split(separator: "/").last ?? "") }
        // By UTF-8 offset (the root is a prefix of every path under it), not by characters.
        return String(Substring(path.utf8.dropFirst(base == "/" ? 1 : base.utf8.count + 1)))
    }
}

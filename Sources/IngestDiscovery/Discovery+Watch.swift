import Foundation
import IngestContainers
import IngestCore

/// What `watch` asks of the walk: the folders it would enter, and the items it would make of
/// some names of one folder. The rules (hidden names, exclusions, ignore files, sidecars, Takeout
/// JSONs, iCloud CSVs) are the walk's own, so a file that arrives is taken as a re-run would take it.
extension Discovery {
    /// A folder the walk enters, with the ignore files above it and the root it lies under.
    public struct WatchedFolder: Sendable, Equatable {
        public var path: String
        /// The root given, under which the rules see relative paths.
        public var base: String
        var scopes: [IgnoreScope]
        var inTakeout: Bool

        /// `path` as a root of its own: the folder of a given path.
        public init(root path: String) {
            self.path = path
            self.base = path
            self.scopes = []
            self.inTakeout = TakeoutPairing.isTakeout(folder: path)
        }

        init(path: String, base: String, scopes: [IgnoreScope]) {
            self.path = path
            self.base = base
            self.scopes = scopes
            self.inTakeout = TakeoutPairing.isTakeout(folder: path)
        }
    }

    /// `folder` and every folder below it that the walk would enter (none it excludes, none twice
    /// through a link), with the files each holds now and their stamps. `entering` is told of
    /// each folder before it is read: a watch is put on it there, so that a file written while it
    /// is read is either in the listing or in the watch's events, never in neither.
    public func folders(
        from folder: WatchedFolder, entering: (WatchedFolder) -> Void = { _ in }
    ) -> [(folder: WatchedFolder, files: [(path: String, stamp: FileStamp)])] {
        var found: [(WatchedFolder, [(path: String, stamp: FileStamp)])] = []
        var entered = Set<DeviceInode>()
        var pending = [folder]
        while let next = pending.popLast() {
            guard case .found(let status) = Self.status(next.path), status.kind == S_IFDIR,
                !self.excluded.contains(status.key), entered.insert(status.key).inserted
            else { continue }
            entering(next)
            guard case .success(let listing) = self.entries(of: next.path, base: next.base, scopes: next.scopes)
            else { continue }
            let scopes = next.scopes + (listing.ignoreFile.map { [$0] } ?? [])
            var files: [(path: String, stamp: FileStamp)] = []
            for entry in listing.entries {
                guard case .found(let child) = entry.status else { continue }
                let path = next.path == "/" ? "/" + entry.name : next.path + "/" + entry.name
                if child.kind == S_IFDIR {
                    pending.append(WatchedFolder(path: path, base: next.base, scopes: scopes))
                } else {
                    files.append((path, child.stamp))
                }
            }
            found.append((next, files))
        }
        return found
    }

    /// The subfolder `name` of `folder`, as the walk would enter it; nil when its rules leave it out.
    public func subfolder(_ name: String, of folder: WatchedFolder) -> WatchedFolder? {
        let path = folder.path == "/" ? "/" + name : folder.path + "/" + name
        let below = (folder.path == folder.base ? "" : Self.relative(folder.path, to: folder.base) + "/") + name
        guard
            case .success(let listing) = self.entries(
                of: folder.path, base: folder.base, scopes: folder.scopes, only: NameHeads(of: [String]()))
        else { return nil }
        let scopes = folder.scopes + (listing.ignoreFile.map { [$0] } ?? [])
        guard self.leftOut(name, at: path, below: below, scopes: scopes) == nil else { return nil }
        return WatchedFolder(path: path, base: folder.base, scopes: scopes)
    }

    /// The items the walk would make of the entries `names` of `folder`, and of the files that
    /// share a name with one of them up to the extension (so that a late partner of a pair meets
    /// the file it pairs with; the catalog knows that one is done). Folders among them are not
    /// entered (the watch follows those); a zip file is walked whole.
    ///
    /// Only the entries that may be one of them, a partner or a sidecar of one are read
    /// (``NameHeads``). A Takeout's folder is read whole (its JSONs' names are cut short and
    /// numbered apart from their files'), and so is a folder where a name beyond ASCII arrived.
    public func items(named names: Set<String>, in folder: WatchedFolder) -> [DiscoveryItem] {
        guard
            case .success(let listing) = self.entries(
                of: folder.path, base: folder.base, scopes: folder.scopes, inTakeout: folder.inTakeout,
                only: folder.inTakeout ? nil : NameHeads(of: names))
        else { return [] }
        let stems = Set(names.compactMap { Self.stem(of: $0) })
        let scopes = folder.scopes + (listing.ignoreFile.map { [$0] } ?? [])
        var state = WalkState()
        var pending: [Entry] = listing.entries.reversed().compactMap { child in
            guard names.contains(child.name) || Self.stem(of: child.name).map(stems.contains) == true,
                case .found(let status) = child.status, status.kind != S_IFDIR
            else { return nil }
            return Entry(
                path: folder.path == "/" ? "/" + child.name : folder.path + "/" + child.name, status: child.status,
                scopes: scopes, sidecar: child.sidecar, inTakeout: folder.inTakeout, inICloud: listing.isICloud,
                note: child.note)
        }
        var items: [DiscoveryItem] = []
        while let entry = pending.popLast() {
            let visit = self.visit(entry, base: folder.base, state: &state)
            if let item = visit.item { items.append(item) }
            pending += visit.children
        }
        return items
    }
}

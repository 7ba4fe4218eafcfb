import AsyncAlgorithms
import Foundation
import IngestContainers
import IngestCore
import IngestHashing

/// One entry of the walk: what it is (a file, a folder to enter, a zip to read, a problem) by
/// the name rules and what `stat` says.
extension Discovery {
    /// What one entry of the walk gives: an item to send (a file, or a problem to report), and
    /// for a folder its entries, to walk next (in reverse order, so that they pop in order).
    struct Visit {
        var item: DiscoveryItem?
        var children: [Entry] = []
        /// A file of another shard, passed over: the root it lies under is not empty.
        var otherShard = false
        /// Hidden entries of a folder passed over.
        var hidden = 0
        /// Entries of a folder left out, by rule.
        var excluded: [String: Int] = [:]
        /// 1 for a file found with its sidecar.
        var sidecars = 0
        /// 1 for a zip file walked.
        var zips = 0
        /// For a file in a Takeout: the rule that paired it with its JSON, or that none did; a
        /// JSON no file took.
        var takeoutPaired: [TakeoutPairing.Rule: Int] = [:]
        var takeoutWithoutJSON = 0
        var takeoutLoneJSON = 0
        /// For a file in an iCloud export's folder: dated by a CSV's row, or with none.
        var icloudDated = 0
        var icloudWithoutRow = 0
        /// For a folder of plain files: its seal, to be sealed once all its files are found done.
        var seal: FolderSeal?
        /// Whether that seal is the one an earlier run sealed: its files are not sent one by one.
        var settled = false
    }

    /// Why a regular file named `name` is passed over with a reason rather than taken (a tar file,
    /// a sidecar no file took); nil when it is taken.
    static func refusal(ofFile name: String) -> String? {
        if let refusal = ZipMember.tarRefusal(name) { return refusal }
        return Sidecar.isSidecar(name) ? Sidecar.withoutFile : nil
    }

    /// Whether the entry at `path` under the root `base` is this run's shard's (all are, unsharded).
    func inShard(_ path: String, base: String) -> Bool {
        // By the name without its extension, so that the files of a pair fall in one shard.
        self.shard.map { shard in
            let relative = Self.relative(path, to: base)
            return shard.contains(relativePath: Self.stem(of: relative) ?? relative)
        } ?? true
    }

    /// Visits `entry` under the root `base`: a folder is entered once (by device and inode, which
    /// ends link loops), a file outside this run's shard is passed over.
    func visit(_ entry: Entry, base: String, state: inout WalkState, listed: ListedFolder? = nil) -> Visit {
        let path = entry.path
        let inShard = self.inShard(path, base: base)
        if let member = entry.member {
            return inShard ? Self.visit(member, entry: entry) : Visit(otherShard: true)
        }
        let status = entry.status ?? Self.status(path)
        if !inShard {
            // Folders and zip files are walked by every shard; only files and walk problems are split.
            guard case .found(let found) = status,
                found.kind == S_IFDIR || (found.kind == S_IFREG && ZipMember.isZip(path))
            else { return Visit(otherShard: true) }
        }
        guard case .found(let status) = status else {
            guard case .missing(let failure) = status else { return Visit() }
            return Visit(
                item: .problem(
                    path: path, status: failure.isLink ? .skipped : .failed,
                    reason: failure.isLink ? "broken symbolic link" : "cannot stat: \(failure.reason)"))
        }
        switch status.kind {
        case S_IFREG:
            // photoingest's own files (the catalog, its journal and lock) in a folder it walks.
            if self.excluded.contains(status.key) { return Visit() }
            if ZipMember.isZip(path) {
                return self.visitZip(path, status: status, base: base, scopes: entry.scopes, state: &state)
            }
            if let refusal = Self.refusal(ofFile: path) {
                return Visit(item: .problem(path: path, status: .skipped, reason: refusal))
            }
            if entry.inTakeout && TakeoutPairing.isJSON(path) { return Self.loneJSON(path) }
            if let note = entry.note { return Visit(item: .problem(path: path, status: .skipped, reason: note)) }
            let sidecar = entry.status == nil ? Self.sidecar(beside: path) : entry.sidecar
            var visit = Visit(item: .file(DiscoveredFile(path: path, stamp: status.stamp, sidecar: sidecar)))
            visit.count(sidecar, entry: entry)
            return visit
        case S_IFDIR:
            let key = status.key
            if self.excluded.contains(key) { return Visit() }
            guard state.entered.insert(key).inserted else {
                return Visit(
                    item: .problem(
                        path: path, status: .skipped,
                        reason:
                            "folder already walked (given again, inside another one given, or reached again through a link)"
                    ))
            }
            let inTakeout = TakeoutPairing.isTakeout(folder: path)
            let listed = listed ?? self.list(path, base: base, scopes: entry.scopes)
            let (seal, settled) = (listed.seal, listed.settled)
            switch listed.listing {
            case .success(let listing):
                let scopes = entry.scopes + (listing.ignoreFile.map { [$0] } ?? [])
                let children = listing.entries.reversed().map { child in
                    Entry(
                        path: path == "/" ? "/" + child.name : path + "/" + child.name, status: child.status,
                        scopes: scopes, sidecar: child.sidecar, inTakeout: inTakeout, inICloud: listing.isICloud,
                        note: child.note)
                }
                // A Takeout's parts: every zip file here is indexed before any is walked into.
                for child in children where ZipMember.isZip(child.path) {
                    if let status = child.status { state.takeout.add(child.path, status: status) }
                }
                // Like a file's, an ignore file's problem is reported by its shard alone.
                let problem = listing.ignoreFileProblem.flatMap { problem in
                    self.shard.map {
                        $0.contains(relativePath: Self.relative(path, to: base) + "/" + ExclusionRules.ignoreFileName)
                    } ?? true
                        ? problem : nil
                }
                var visit = Visit(
                    item: problem, children: children, hidden: listing.hidden, excluded: listing.excluded, seal: seal,
                    settled: settled)
                if settled { visit.sidecars = seal?.sidecars ?? 0 }
                return visit
            case .failure(let reason):
                return Visit(item: .problem(path: path, status: .failed, reason: "cannot read folder: \(reason)"))
            }
        default:
            return Visit(item: .problem(path: path, status: .skipped, reason: "not a regular file"))
        }
    }
}

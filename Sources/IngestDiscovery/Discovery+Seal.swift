import Foundation
import IngestCore
import IngestHashing

/// A folder's seal: the digest of its files as listed, which lets a re-run pass over a folder
/// whose files are all done without a catalog lookup per file.
extension Discovery {
    /// The seal of the folder `folder` (listed as `listing`, under the root `base`); nil when the
    /// walk seals no folders, or when this one holds anything but plain files of this shard and
    /// folders, or no file of this shard at all.
    func seal(of listing: Listing, folder: String, base: String, inTakeout: Bool) -> FolderSeal? {
        guard self.sealsFolders, !inTakeout, !listing.isICloud else { return nil }
        // A file given as a root is walked on its own too (its sidecar found its own way): the
        // folder it lies in would see one path twice, so it is never sealed.
        guard !self.rootFolders.contains(PathKey(folder)) else { return nil }
        var hasher = ContentHasher()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.sealChunk + 512)
        var seal = FolderSeal(folder: folder, digest: "", files: 0)
        for entry in listing.entries {
            guard case .found(let status) = entry.status, entry.note == nil else { return nil }
            if status.kind == S_IFDIR { continue }
            guard status.kind == S_IFREG else { return nil }
            // photoingest's own files are passed over without an outcome: no part of the seal.
            if self.excluded.contains(status.key) { continue }
            if ZipMember.isZip(entry.name) || Self.refusal(ofFile: entry.name) != nil { return nil }
            bytes.append(contentsOf: entry.name.utf8)
            bytes.append(0)
            let stamp = status.stamp
            withUnsafeBytes(of: stamp.size.littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: stamp.modifiedNanoseconds.littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: stamp.inode.littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: (stamp.changedNanoseconds ?? -1).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: (entry.sidecar?.fingerprint ?? "").utf8)
            bytes.append(0)
            if bytes.count >= Self.sealChunk {
                bytes.withUnsafeBytes { hasher.update($0) }
                bytes.removeAll(keepingCapacity: true)
            }
            // Which files are this shard's is part of the seal: a new shard plan, or another root
            // (shards split by the path below it), moves files between shards.
            if self.shard != nil {
                let mine = self.inShard(folder + "/" + entry.name, base: base)
                bytes.append(mine ? 1 : 0)
                if !mine { continue }
            }
            seal.files += 1
            if entry.sidecar != nil { seal.sidecars += 1 }
            if seal.firstPaths.count < FolderSeal.examples { seal.firstPaths.append(folder + "/" + entry.name) }
        }
        guard seal.files > 0 else { return nil }
        bytes.withUnsafeBytes { hasher.update($0) }
        seal.digest = hasher.finalize().description
        return seal
    }

    /// The folders that `roots`, made absolute, lie in.
    static func folders(holding roots: [String]) -> Set<PathKey> {
        Set(roots.compactMap { root in FolderSeal.folder(of: Self.absolute(root)).map(PathKey.init) })
    }

    /// Whether an earlier run sealed `seal`'s folder as it is now.
    func isSettled(_ seal: FolderSeal) -> Bool {
        self.sealedDigest?(seal.folder) == seal.digest
    }

    /// How many bytes of a folder's entries are gathered before they are hashed: a folder of a
    /// million files is hashed in pieces, not held.
    static let sealChunk = 64 * 1024
}

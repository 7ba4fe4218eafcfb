import Foundation
import GRDB
import IngestCore
import IngestHashing

/// What `verify` asks of the archive: every original its index lists, each checked against the
/// disk, and the damaged ones let go of so that the next run stores them again.
extension Archive {
    /// Every original the index lists, with the events that hold it, in hash order.
    public func keptOriginals() async throws -> [KeptOriginal] {
        try await self.index.read { db in
            var kept: [KeptOriginal] = []
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT p.sha256, p.size, p.original, p.thumbnail_500, p.thumbnail_200,
                        (SELECT group_concat(ep.event_id, char(10)) FROM event_photo ep WHERE ep.sha256 = p.sha256)
                    FROM photo p ORDER BY p.sha256
                    """)
            while let row = try rows.next() {
                guard let hash = ContentHash(parsing: row[0] as String) else { continue }
                let thumbnails = [row[3] as String, row[4] as String].filter { !$0.isEmpty }
                let events = (row[5] as String?)?.split(separator: "\n").map(String.init) ?? []
                kept.append(
                    KeptOriginal(hash: hash, size: row[1], original: row[2], thumbnails: thumbnails, events: events))
            }
            return kept
        }
    }

    /// Reads the original whole and hashes it; nil when it and its thumbnails are as the index
    /// says. `read` is told of every chunk's size, for a progress line. Blocking: run it on a
    /// thread of its own.
    public func check(_ kept: KeptOriginal, buffer: inout [UInt8], read: (Int) -> Void = { _ in })
        -> ArchiveDamage?
    {
        guard let file = try? OpenFile(self.root + "/" + kept.original, O_RDONLY) else { return .originalMissing }
        defer { file.close() }
        var hasher = ContentHasher()
        var size = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { try? file.read(into: $0) }
            guard let got else { return .originalDamaged(size: size) }
            if got == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<got])) }
            size += got
            read(got)
        }
        guard size == kept.size, hasher.finalize() == kept.hash else { return .originalDamaged(size: size) }
        for thumbnail in kept.thumbnails where !FileManager.default.fileExists(atPath: self.root + "/" + thumbnail) {
            return .thumbnailMissing(thumbnail)
        }
        return nil
    }

    /// Lets go of an original found damaged: its rows leave the index, so that no event holds its
    /// hash and the next run over its source stores it again. Changed bytes are moved to
    /// `damaged/` (their hex name kept) for whoever wants to look, and so that the next run does
    /// not take them for the original it would copy; a whole original whose thumbnail is missing
    /// stays, and the next run only writes the thumbnails. Returns where changed bytes went.
    @discardableResult
    public func forget(_ kept: KeptOriginal, _ damage: ArchiveDamage) async throws -> String? {
        let from = self.root + "/" + kept.original
        var moved: String?
        if case .originalDamaged = damage, FileManager.default.fileExists(atPath: from) {
            let folder = self.root + "/" + ArchiveLayout.damaged
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let name = String(kept.original.split(separator: "/").last ?? Substring(kept.hash.hex))
            let to = folder + "/" + name
            guard rename(from, to) == 0 else {
                throw IngestError(.storeFailed, "cannot move \(from) aside: \(String(cString: strerror(errno)))")
            }
            moved = to
        }
        try await self.index.write { db in
            try db.execute(sql: "DELETE FROM event_photo WHERE sha256 = ?", arguments: [kept.hash.hex])
            try db.execute(sql: "DELETE FROM photo WHERE sha256 = ?", arguments: [kept.hash.hex])
        }
        return moved
    }
}

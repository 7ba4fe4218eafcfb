import CFileSystemShim
import Foundation
import GRDB
import IngestCore
import SystemPackage

/// Committing a group of stores: their files made durable together, renamed into place, the
/// folders that got new names made durable, then every index row in one durable transaction.
///
/// Each step waits for the one before, for the whole group: a stored name never holds less than
/// its whole file, and the index (then the caller's catalog) never names a photo whose files a
/// power cut could take back.
extension Archive {
    /// Commits `group`, leaving in each placement what became of it. Blocking.
    static func commit(_ group: [ArchivePlacement], root: String, index: DatabasePool) {
        Self.syncData(group)
        var folders = Set<String>()
        for placement in group {
            guard placement.result == nil else {
                Self.discard(placement.staged)
                continue
            }
            folders.formUnion(Self.rename(placement, root: root))
        }
        Self.syncFolders(folders, of: group, root: root)
        Self.insertRows(group, index: index)
    }

    /// Starts the writeback of every staged file of the group, then waits for each: the first
    /// wait commits the journal for all, the others find their data on the disk already. The
    /// files are closed after.
    private static func syncData(_ group: [ArchivePlacement]) {
        for placement in group {
            // Only a hint: a failure here shows again in the wait below, which is what counts.
            for staged in placement.staged { _ = ingest_start_writeback(staged.file.raw) }
        }
        for placement in group {
            for staged in placement.staged {
                do {
                    try staged.file.syncData()
                } catch {
                    placement.fail(IngestError(.storeFailed, "syncing the archive failed: \(error)"))
                }
                staged.file.close()
            }
        }
    }

    /// Renames the placement's files into place; returns the folders whose entries changed (a
    /// new name, and the folder above a folder made). On a failure, the files not yet in place
    /// are removed and the placement fails.
    private static func rename(_ placement: ArchivePlacement, root: String) -> Set<String> {
        var folders = Set<String>()
        for (position, staged) in placement.staged.enumerated() {
            let target = root + "/" + staged.relativePath
            let folder = FileSystem.folder(of: target)
            do throws(IngestError) {
                // Renamed first: its folder is there but for a hash prefix's first photo, and a
                // mkdir that finds it would cost a call a file. Missing, it is made (by this run, or
                // by another shard meanwhile: then found) and the rename is tried again.
                var renamed = Result { () throws(Errno) in try FileSystem.rename(staged.temporary, to: target) }
                if case .failure(.noSuchFileOrDirectory) = renamed {
                    if try Self.createFolder(of: target) { folders.insert(FileSystem.folder(of: folder)) }
                    renamed = Result { () throws(Errno) in try FileSystem.rename(staged.temporary, to: target) }
                }
                if case .failure(let error) = renamed {
                    throw IngestError(
                        .storeFailed, "renaming in the archive failed: \(staged.relativePath): \(error)")
                }
                folders.insert(folder)
            } catch {
                Self.discard(placement.staged[position...])
                placement.fail(error)
                break
            }
        }
        return folders
    }

    /// Syncs each folder that got a new name. A folder that cannot be synced fails every
    /// placement still going (which of them renamed into it is not worth telling apart: a sync
    /// that fails is a disk in trouble).
    private static func syncFolders(_ folders: Set<String>, of group: [ArchivePlacement], root: String) {
        for folder in folders {
            let failure: Errno
            do throws(Errno) {
                let file = try OpenFile(folder, O_RDONLY | O_DIRECTORY)
                defer { file.close() }
                try file.syncData()
                continue
            } catch {
                failure = error
            }
            let relative = String(folder.dropFirst(root.count + 1))
            for placement in group {
                placement.fail(IngestError(.storeFailed, "syncing the archive's folder \(relative) failed: \(failure)"))
            }
        }
    }

    /// Inserts the index rows of the placements still going, in one transaction the index makes
    /// durable before it returns (`synchronous = FULL`).
    private static func insertRows(_ group: [ArchivePlacement], index: DatabasePool) {
        let going = group.filter { $0.result == nil }
        guard !going.isEmpty else { return }
        do {
            let inserted = try index.write { db -> [Bool] in
                // Cached: prepared once for the run, not once a photo.
                let photo = try db.cachedStatement(
                    sql: """
                        INSERT OR IGNORE INTO photo (sha256, size, media_type, original, thumbnail_500,
                            thumbnail_200, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """)
                let eventPhoto = try db.cachedStatement(
                    sql: """
                        INSERT OR IGNORE INTO event_photo (event_id, sha256, filename, capture_time,
                            capture_source, uploaded_at) VALUES (?, ?, ?, ?, ?, ?)
                        """)
                return try going.map { placement in
                    try photo.execute(arguments: placement.photo)
                    try eventPhoto.execute(arguments: placement.eventPhoto)
                    return db.changesCount > 0
                }
            }
            for (placement, inserted) in zip(going, inserted) {
                placement.result = .success(inserted ? .stored : .duplicate)
            }
        } catch {
            for placement in going {
                placement.fail(IngestError(.storeFailed, "storing in the archive failed", because: error))
            }
        }
    }
}

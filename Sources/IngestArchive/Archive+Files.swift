import Foundation
import GRDB
import IngestCore

/// The archive's files: written under `tmp/`, synced, then renamed into place, so that a
/// stored file is always whole.
extension Archive {
    /// Removes what writers killed mid-write left under `tmp/` (never a stored file: those are
    /// renamed out of it whole), if older than `age` seconds so that live writers keep theirs.
    /// Returns how many were removed.
    @discardableResult
    public func removeStaleTemporaryFiles(olderThan age: TimeInterval) -> Int {
        let folder = self.root + "/" + ArchiveLayout.temporary
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let now = Date().timeIntervalSince1970
        var removed = 0
        for name in names {
            var status = stat()
            let path = folder + "/" + name
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                now - TimeInterval(status.st_mtim.tv_sec) >= age
            else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// A new name under the archive's `tmp/`, on the same file system as the archive, for
    /// writing a file that ``store(_:inEvent:)`` will later sync and move into place.
    public func temporaryPath() -> String {
        "\(self.root)/\(ArchiveLayout.temporary)/\(self.temporaryNames.next())"
    }

    /// A file written under `tmp/` for a store, open, neither durable nor in place yet.
    struct StagedFile {
        var temporary: String
        /// Where it goes, under the archive's root.
        var relativePath: String
        var file: OpenFile
    }

    /// A temporary file written whole elsewhere (a copy, an upload), opened to be synced; removed
    /// when it cannot be.
    func stage(temporary: String, for relativePath: String) throws(IngestError) -> StagedFile {
        do {
            return StagedFile(temporary: temporary, relativePath: relativePath, file: try OpenFile(temporary, O_RDONLY))
        } catch {
            FileSystem.remove(temporary)
            throw IngestError(.storeFailed, "storing in the archive failed: \(relativePath): \(error)")
        }
    }

    /// Writes `bytes` into a new temporary file for `relativePath`; nil when the content-addressed
    /// file is there already, whole. An original, read once and not read back soon, goes around
    /// the page cache (``UncachedWrite``) where the file system allows it.
    func stage(_ bytes: [UInt8], for relativePath: String) throws(IngestError) -> StagedFile? {
        if self.holds(relativePath: relativePath, size: bytes.count) { return nil }
        let (temporary, file, uncached) = try self.createTemporary(uncached: bytes.count >= UncachedWrite.threshold)
        do {
            if uncached { try UncachedWrite.write(bytes, to: file) } else { try file.writeAll(bytes) }
        } catch {
            file.close()
            FileSystem.remove(temporary)
            throw IngestError(.storeFailed, "writing to the archive failed: \(relativePath): \(error)")
        }
        return StagedFile(temporary: temporary, relativePath: relativePath, file: file)
    }

    /// Removes staged files that will not be placed (their descriptors are closed by their owner).
    static func discard(_ staged: some Collection<StagedFile>) {
        for file in staged { FileSystem.remove(file.temporary) }
    }

    /// Creates the folder a stored file goes in, if it is not there yet; returns whether it made it.
    @discardableResult
    static func createFolder(of target: String) throws(IngestError) -> Bool {
        let folder = (target as NSString).deletingLastPathComponent
        do {
            return try FileSystem.createFolder(folder)
        } catch {
            throw IngestError(.storeFailed, "cannot create a folder in the archive: \(folder): \(error)")
        }
    }

    /// A new file under `tmp/`, open for writing: its path and the open file.
    func createTemporary() throws(IngestError) -> (path: String, file: OpenFile) {
        let (temporary, file, _) = try self.createTemporary(uncached: false)
        return (temporary, file)
    }

    /// A new file under `tmp/`, open for writing, and whether it is open for ``UncachedWrite``
    /// (asked for with `uncached`, and the file system allows it).
    private func createTemporary(uncached: Bool) throws(IngestError) -> (path: String, file: OpenFile, uncached: Bool) {
        let temporary = self.temporaryPath()
        do {
            if uncached, let file = try UncachedWrite.create(temporary) { return (temporary, file, true) }
            return (temporary, try OpenFile(temporary, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o644), false)
        } catch {
            throw IngestError(.storeFailed, "cannot create a file in the archive: \(temporary): \(error)")
        }
    }

    /// Whether the content-addressed file is already there, whole.
    func holds(relativePath: String, size: Int) -> Bool {
        var status = stat()
        return stat(self.root + "/" + relativePath, &status) == 0 && Int(status.st_size) == size
    }
}

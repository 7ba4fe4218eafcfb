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
    /// writing a file that ``store(_:inEvent:)`` will later move into place.
    public func temporaryPath() -> String {
        "\(self.root)/\(ArchiveLayout.temporary)/\(UUID().uuidString)"
    }

    /// Syncs a finished temporary file and renames it to `relativePath` (or drops it when the
    /// content-addressed name already exists).
    func moveIntoPlace(_ temporary: String, to relativePath: String) throws(IngestError) {
        let target = self.root + "/" + relativePath
        try Self.createFolder(of: target)
        do {
            let file = try OpenFile(temporary, O_RDONLY)
            defer { file.close() }
            try file.sync()
        } catch {
            FileSystem.remove(temporary)
            throw IngestError(.storeFailed, "storing in the archive failed: \(relativePath): \(error)")
        }
        do {
            try FileSystem.rename(temporary, to: target)
        } catch {
            FileSystem.remove(temporary)
            throw IngestError(.storeFailed, "storing in the archive failed: \(relativePath): \(error)")
        }
    }

    /// Creates the folder a stored file goes in, if it is not there yet.
    static func createFolder(of target: String) throws(IngestError) {
        let folder = (target as NSString).deletingLastPathComponent
        do {
            try FileSystem.createFolder(folder)
        } catch {
            throw IngestError(.storeFailed, "cannot create a folder in the archive: \(folder): \(error)")
        }
    }

    /// A new file under `tmp/`, open for writing: its path and the open file.
    func createTemporary() throws(IngestError) -> (path: String, file: OpenFile) {
        let temporary = self.temporaryPath()
        do {
            return (temporary, try OpenFile(temporary, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o644))
        } catch {
            throw IngestError(.storeFailed, "cannot create a file in the archive: \(temporary): \(error)")
        }
    }

    /// Whether the content-addressed file is already there, whole.
    func holds(relativePath: String, size: Int) -> Bool {
        var status = stat()
        return stat(self.root + "/" + relativePath, &status) == 0 && Int(status.st_size) == size
    }

    /// Writes `bytes` to `relativePath` under a temporary name, syncs, then renames; an existing
    /// file of the same content-addressed name is kept as it is.
    func write(_ bytes: [UInt8], to relativePath: String) throws(IngestError) {
        if self.holds(relativePath: relativePath, size: bytes.count) { return }
        let target = self.root + "/" + relativePath
        try Self.createFolder(of: target)
        let (temporary, file) = try self.createTemporary()
        var failure: String?
        do {
            try file.writeAll(bytes)
        } catch {
            failure = "writing to the archive failed: \(relativePath): \(error)"
        }
        if failure == nil {
            do { try file.sync() } catch { failure = "syncing the archive failed: \(relativePath): \(error)" }
        }
        file.close()
        if failure == nil {
            do {
                try FileSystem.rename(temporary, to: target)
            } catch {
                failure = "renaming in the archive failed: \(relativePath): \(error)"
            }
        }
        if let failure {
            FileSystem.remove(temporary)
            throw IngestError(.storeFailed, failure)
        }
    }
}

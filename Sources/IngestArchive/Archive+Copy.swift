import Foundation
import IngestCore
import IngestHashing
import SystemPackage

extension Archive {
    /// Copies a file the pipeline read earlier into a new temporary file of the archive, hashing it
    /// on the way: the copy is kept only if the file still has the stamp and the hash it was read
    /// with. Returns the temporary file's path, for ``moveIntoPlace(_:to:)``. Blocking.
    func copy(_ path: String, stamp: FileStamp, hash: ContentHash) throws(IngestError) -> String {
        let changed = IngestError(
            .storeFailed, "the file changed since it was read; it will be read again on the next run")
        let source: OpenFile
        do {
            source = try OpenFile(path, O_RDONLY | O_NONBLOCK)
        } catch {
            throw IngestError(.storeFailed, "cannot open the file again: \(error)")
        }
        defer { source.close() }
        // A file swapped for a device, or still growing, must not fill the archive before the check.
        guard let before = try? source.status(), before.st_mode & S_IFMT == S_IFREG, FileStamp(before) == stamp else {
            throw changed
        }
        let (temporary, target) = try self.createTemporary()
        do throws(IngestError) {
            defer { target.close() }
            let (copied, copiedHash) = try Self.copy(to: target, atMost: Int(stamp.size)) {
                buffer throws(IngestError) in
                do {
                    return try source.read(into: buffer)
                } catch {
                    throw IngestError(.storeFailed, "reading the file again failed: \(error)")
                }
            }
            guard let after = try? source.status(), FileStamp(after) == stamp, copied == Int(stamp.size),
                copiedHash == hash
            else { throw changed }
            return temporary
        } catch {
            FileSystem.remove(temporary)
            throw error
        }
    }

    /// Copies content with no file of its own (a video inside a zip file) into a new temporary
    /// file of the archive, hashing it on the way: kept only if it has the hash it was read with.
    /// Returns the temporary file's path, for ``moveIntoPlace(_:to:)``. Blocking.
    func copy(_ source: ContentSource, hash: ContentHash) throws(IngestError) -> String {
        let reader = try source.open()
        let (temporary, target) = try self.createTemporary()
        do throws(IngestError) {
            defer { target.close() }
            var offset: Int64 = 0
            let (copied, copiedHash) = try Self.copy(to: target, atMost: Int(source.size)) {
                buffer throws(IngestError) in
                let got = try reader.read(into: buffer, at: offset)
                offset += Int64(got)
                return got
            }
            guard copied == Int(source.size), copiedHash == hash else {
                throw IngestError(
                    .storeFailed, "the content changed since it was read; it will be read again on the next run")
            }
            return temporary
        } catch {
            FileSystem.remove(temporary)
            throw error
        }
    }

    /// Copies what `read` gives (into the buffer it is handed; 0 at the end) to `target` through
    /// one buffer, hashing as it goes; more than `limit` bytes means the source grew since it was
    /// read. Returns the bytes copied and their hash.
    private static func copy(
        to target: OpenFile, atMost limit: Int,
        read: (UnsafeMutableRawBufferPointer) throws(IngestError) -> Int
    ) throws(IngestError) -> (count: Int, hash: ContentHash) {
        var hasher = ContentHasher()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var copied = 0
        while true {
            let chunk = try buffer.withUnsafeMutableBytes { raw in
                Result { () throws(IngestError) -> Int in try read(raw) }
            }.get()
            if chunk == 0 { return (copied, hasher.finalize()) }
            copied += chunk
            guard copied <= limit else {
                throw IngestError(
                    .storeFailed, "the file changed since it was read; it will be read again on the next run")
            }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<chunk])) }
            do {
                try target.writeAll(buffer[0..<chunk])
            } catch {
                throw IngestError(.storeFailed, "writing the copy into the archive failed: \(error)")
            }
        }
    }
}

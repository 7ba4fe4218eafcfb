import Foundation
import IngestCore
import IngestHashing

extension Archive {
    /// Copies a file the pipeline read earlier into a new temporary file of the archive, hashing it
    /// on the way: the copy is kept only if the file still has the stamp and the hash it was read
    /// with. Returns the temporary file's path, for ``moveIntoPlace(_:to:)``. Blocking.
    func copy(_ path: String, stamp: FileStamp, hash: ContentHash) throws(IngestError) -> String {
        let source = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard source >= 0 else {
            throw IngestError(.storeFailed, "cannot open \(path) again: \(String(cString: strerror(errno)))")
        }
        defer { close(source) }
        // A file swapped for a device, or still growing, must not fill the archive before the check.
        var before = stat()
        guard fstat(source, &before) == 0, before.st_mode & S_IFMT == S_IFREG, FileStamp(before) == stamp else {
            throw IngestError(.storeFailed, "\(path) changed since it was read; it will be read again on the next run")
        }
        let (temporary, target) = try self.createTemporary()
        var failure: String?
        var hasher = ContentHasher()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var copied = 0
        copying: while true {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress!, $0.count) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 {
                failure = "reading \(path) again failed: \(String(cString: strerror(errno)))"
                break
            }
            if got == 0 { break }
            copied += got
            if copied > Int(stamp.size) {
                failure = "\(path) changed since it was read; it will be read again on the next run"
                break
            }
            let written = buffer.withUnsafeBytes { chunk -> Bool in
                hasher.update(UnsafeRawBufferPointer(rebasing: chunk[0..<got]))
                var offset = 0
                while offset < got {
                    let count = Glibc.write(target, chunk.baseAddress! + offset, got - offset)
                    if count < 0 && errno == EINTR { continue }
                    if count < 0 { return false }
                    offset += count
                }
                return true
            }
            if !written {
                failure = "writing the copy of \(path) failed: \(String(cString: strerror(errno)))"
                break copying
            }
        }
        close(target)
        var after = stat()
        if failure == nil,
            fstat(source, &after) != 0 || FileStamp(after) != stamp || copied != Int(stamp.size)
                || hasher.finalize() != hash
        {
            failure = "\(path) changed since it was read; it will be read again on the next run"
        }
        if let failure {
            unlink(temporary)
            throw IngestError(.storeFailed, failure)
        }
        return temporary
    }
}

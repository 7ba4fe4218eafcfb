import CFileSystemShim
import Foundation
import IngestCore
import SystemPackage

/// Writes a file's bytes around the page cache (`O_DIRECT`), where the file system allows it.
///
/// An archive run copies every original it stores: gigabytes that nobody reads back soon. Through
/// the page cache, the kernel finds a page for every 4 KiB and copies into it (most of the run's
/// system time: 3.2 s against vipsthumbnail's 0.8 s over 200 photos of 5 MB), writes it back
/// later, and pushes out what the user's other programs had cached. Uncached, the disk takes the
/// bytes from memory of ours. `O_DIRECT` wants aligned memory, offsets and lengths: the bytes go
/// through one of a few reused aligned buffers, the last block padded, then the file cut to size.
enum UncachedWrite {
    static let alignment = 4096
    static let chunk = 1 << 20
    /// Files smaller than this go through the page cache: a wait on the disk for each write would
    /// cost more than the copy saves.
    static let threshold = 256 << 10

    /// Buffers reused from write to write: a new one would be pages the kernel finds and zeroes
    /// again for every file. As many as writers at once, no more.
    private static let buffers = Locked<[AlignedBuffer]>([])

    /// Creates `path` (which must not exist) for an uncached write; nil when the file system has no
    /// uncached writes (tmpfs), for the caller to create it as any file.
    static func create(_ path: String) throws(Errno) -> OpenFile? {
        let raw = PathBytes.withCString(path) {
            ingest_open_uncached($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        if raw >= 0 { return OpenFile(descriptor: raw) }
        if errno == EINVAL { return nil }
        throw Errno(rawValue: errno)
    }

    /// Writes `bytes` from the start of `file`, opened by ``create(_:)``. A file system that takes
    /// the open but refuses the first write (some FUSE ones) gets the bytes through the page cache.
    static func write(_ bytes: [UInt8], to file: OpenFile) throws(Errno) {
        let buffer =
            Self.buffers.withLock { $0.popLast() } ?? AlignedBuffer(size: Self.chunk, alignment: Self.alignment)
        defer { Self.buffers.withLock { $0.append(buffer) } }
        var offset = 0
        while offset < bytes.count {
            let count = min(Self.chunk, bytes.count - offset)
            let padded = (count + Self.alignment - 1) / Self.alignment * Self.alignment
            bytes.withUnsafeBytes { source in
                buffer.pointer.copyMemory(from: source.baseAddress! + offset, byteCount: count)
            }
            if padded > count {
                (buffer.pointer + count).initializeMemory(as: UInt8.self, repeating: 0, count: padded - count)
            }
            do {
                try Self.writeAll(buffer.pointer, count: padded, at: offset, to: file)
            } catch  where error == .invalidArgument && offset == 0 {
                guard ingest_stop_uncached(file.raw) == 0, ftruncate(file.raw, 0) == 0 else {
                    throw Errno(rawValue: errno)
                }
                try file.writeAll(bytes)
                return
            }
            offset += count
        }
        // The padding of the last block goes.
        while bytes.count % Self.alignment != 0, ftruncate(file.raw, off_t(bytes.count)) != 0 {
            guard errno == EINTR else { throw Errno(rawValue: errno) }
        }
    }

    /// `pwrite`s all `count` bytes at `offset`.
    private static func writeAll(
        _ pointer: UnsafeMutableRawPointer, count: Int, at offset: Int, to file: OpenFile
    ) throws(Errno) {
        var done = 0
        while done < count {
            let written = pwrite(file.raw, pointer + done, count - done, off_t(offset + done))
            if written < 0 {
                guard errno == EINTR else { throw Errno(rawValue: errno) }
                continue
            }
            guard written > 0 else { throw Errno.ioError }
            done += written
        }
    }
}

import Foundation

/// What identifies a file's content on disk without reading it: if none of these changed,
/// neither did the bytes (for every tool that writes files the ordinary way).
public struct FileStamp: Sendable, Hashable {
    public var size: Int64
    /// Modification time in nanoseconds since the epoch.
    public var modifiedNanoseconds: Int64
    public var inode: UInt64

    public init(size: Int64, modifiedNanoseconds: Int64, inode: UInt64) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
    }
}

extension FileStamp {
    /// The stamp of what `stat`/`fstat` reported.
    public init(_ status: stat) {
        self.init(
            size: Int64(status.st_size),
            modifiedNanoseconds: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
            inode: UInt64(status.st_ino))
    }
}

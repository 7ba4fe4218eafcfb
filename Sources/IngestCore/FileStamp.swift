import Foundation

/// What identifies a file's content on disk without reading it: if none of these changed,
/// neither did the bytes.
///
/// Size, mtime and inode catch every tool that writes files the ordinary way. The ctime catches
/// the rest: a tool that edits in place and sets the mtime back (`exiftool -P`), which leaves
/// the other three as they were where the mtime has no sub-second part (files from a FAT or exFAT
/// card copied with `cp -p`). The kernel moves the ctime on every change and no tool can set it.
public struct FileStamp: Sendable, Hashable {
    public var size: Int64
    /// Modification time in nanoseconds since the epoch.
    public var modifiedNanoseconds: Int64
    public var inode: UInt64
    /// Status change time (ctime) in nanoseconds since the epoch; nil where there is none to go
    /// by (a zip file's entry), or where a catalog of an older photoingest recorded none.
    public var changedNanoseconds: Int64?

    public init(size: Int64, modifiedNanoseconds: Int64, inode: UInt64, changedNanoseconds: Int64? = nil) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
        self.changedNanoseconds = changedNanoseconds
    }

    /// Whether the file, with this stamp now, is the one an earlier run recorded as `recorded`:
    /// the same size, mtime and inode, and the same ctime where both know one. A row of an older
    /// catalog knows none, so that the first run after the upgrade reads nothing again for it
    /// (and records the ctime it sees from then on).
    public func isUnchanged(since recorded: FileStamp) -> Bool {
        guard self.size == recorded.size, self.modifiedNanoseconds == recorded.modifiedNanoseconds,
            self.inode == recorded.inode
        else { return false }
        guard let now = self.changedNanoseconds, let then = recorded.changedNanoseconds else { return true }
        return now == then
    }
}

extension FileStamp {
    /// The stamp of what `stat`/`fstat` reported.
    public init(_ status: stat) {
        self.init(
            size: Int64(status.st_size),
            modifiedNanoseconds: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
            inode: UInt64(status.st_ino),
            changedNanoseconds: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec))
    }
}

import Glibc
import IngestCore

/// The folders a `watch` follows, through Linux's inotify: which files were closed after writing,
/// moved in, created or written to, which folders appeared or went away, and when the kernel's
/// queue overflowed (then events were lost and the folders must be read again).
///
/// Reads never block: the caller polls, so no thread of the cooperative pool waits in `read`.
final class FolderWatch {
    /// What inotify said of one entry of a watched folder.
    enum Change: Equatable {
        /// A file closed after writing, or moved into the folder: complete.
        case closed(String)
        /// A file created or written to: perhaps still being written.
        case written(String)
        /// A folder created or moved into the folder.
        case folderAppeared(String)
        /// An entry deleted or moved away.
        case removed(String)
    }

    enum Event: Equatable {
        case entry(Change, in: Discovery.WatchedFolder)
        /// A watched folder itself was deleted or moved away.
        case folderGone(Discovery.WatchedFolder)
        /// The kernel's queue overflowed: events were lost.
        case overflow
    }

    private let descriptor: Int32
    private var folders: [Int32: Discovery.WatchedFolder] = [:]
    private var watchOf: [String: Int32] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    static let mask: UInt32 = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF
            | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)

    init() throws(IngestError) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw IngestError(.invalidConfiguration, "cannot watch folders: \(FileSystem.message(errno))")
        }
        self.descriptor = descriptor
    }

    deinit { close(self.descriptor) }

    /// How many folders are watched.
    var count: Int { self.folders.count }

    /// Whether `path` is watched.
    func isWatched(_ path: String) -> Bool { self.watchOf[path] != nil }

    /// Watches `folder`; the errno when it cannot (ENOSPC: the user's watch limit is reached).
    func add(_ folder: Discovery.WatchedFolder) -> Int32? {
        let watch = PathBytes.withCString(folder.path) { inotify_add_watch(self.descriptor, $0, Self.mask) }
        guard watch >= 0 else { return errno }
        if let old = self.folders[watch], old.path != folder.path { self.watchOf[old.path] = nil }
        self.folders[watch] = folder
        self.watchOf[folder.path] = watch
        return nil
    }

    /// The events waiting; empty when there are none.
    func events() -> [Event] {
        var events: [Event] = []
        while true {
            let count = self.buffer.withUnsafeMutableBytes { read(self.descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            self.parse(count, into: &events)
        }
        return events
    }

    /// The `struct inotify_event`s in the first `count` bytes of the buffer.
    private func parse(_ count: Int, into events: inout [Event]) {
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        self.buffer.withUnsafeBytes { bytes in
            while offset + header <= count {
                let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = bytes[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    events.append(.overflow)
                    continue
                }
                guard let folder = self.folders[watch] else { continue }
                if mask & UInt32(IN_IGNORED) != 0 {
                    // The watch is gone (its folder deleted, or unmounted).
                    self.folders[watch] = nil
                    if self.watchOf[folder.path] == watch { self.watchOf[folder.path] = nil }
                    continue
                }
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    events.append(.folderGone(folder))
                    continue
                }
                let name = PathBytes.string(nameBytes)
                guard !name.isEmpty else { continue }
                let isFolder = mask & UInt32(IN_ISDIR) != 0
                let change: Change
                if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                    change = .removed(name)
                } else if isFolder {
                    guard mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 else { continue }
                    change = .folderAppeared(name)
                } else if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
                    change = .closed(name)
                } else {
                    change = .written(name)
                }
                events.append(.entry(change, in: folder))
            }
        }
    }
}

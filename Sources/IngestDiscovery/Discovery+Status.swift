import AsyncAlgorithms
import Foundation
import IngestContainers
import IngestCore
import IngestHashing

extension Discovery {
    /// What `stat` said of an entry, following links.
    enum Status: Sendable {
        case found(Found)
        case missing(StatFailure)

        /// Whether it is a folder (or a link to one).
        var isFolder: Bool {
            guard case .found(let found) = self else { return false }
            return found.kind == S_IFDIR
        }
    }

    /// What the walk keeps of a `stat`: a fifth of its bytes, copied with every entry of a folder.
    struct Found: Sendable {
        /// The file's type (`st_mode & S_IFMT`): `S_IFREG`, `S_IFDIR`, …
        var kind: mode_t
        var device: UInt64
        var stamp: FileStamp

        init(_ status: stat) {
            self.kind = status.st_mode & S_IFMT
            self.device = UInt64(status.st_dev)
            self.stamp = FileStamp(status)
        }

        /// The folder's or file's identity, for entering each once.
        var key: DeviceInode { DeviceInode(device: self.device, inode: self.stamp.inode) }
    }

    /// Why `stat` failed. The error number, not its text: a status is copied with every entry of
    /// a folder, and a plain value is copied by bytes.
    struct StatFailure: Sendable {
        /// A link whose target is gone.
        var isLink: Bool
        var error: Int32

        var reason: String { FileSystem.message(self.error) }
    }

    /// `stat` of `path` (relative to the folder `descriptor`, or absolute), following links; when
    /// that fails, why, and whether the path is a broken link.
    static func status(_ path: String, in descriptor: Int32 = AT_FDCWD) -> Status {
        PathBytes.withCString(path) { name in
            var status = stat()
            if fstatat(descriptor, name, &status, 0) == 0 { return .found(Found(status)) }
            let error = errno
            var link = stat()
            let isLink = fstatat(descriptor, name, &link, AT_SYMLINK_NOFOLLOW) == 0 && link.st_mode & S_IFMT == S_IFLNK
            return .missing(StatFailure(isLink: isLink, error: error))
        }
    }

    /// `path` made absolute against the working directory, with `.` and repeated slashes removed.
    ///
    /// Symbolic links are not resolved and `..` is kept: the report and the catalog name files the
    /// way the user reached them, and `a/link/..` means what the kernel says it means.
    public static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let components = full.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return "/" + components.joined(separator: "/")
    }
}

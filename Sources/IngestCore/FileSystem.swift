import Foundation
import SystemPackage

/// The calls photoingest makes on paths rather than on open files, failing with an `Errno`
/// (the system's own words in its description).
public enum FileSystem {
    /// Creates the folder `path` (not its parents); one that is there already is fine. Returns
    /// whether it made it.
    @discardableResult
    public static func createFolder(_ path: String, permissions: mode_t = 0o755) throws(Errno) -> Bool {
        let made = PathBytes.withCString(path) { mkdir($0, permissions) }
        guard made == 0 || errno == EEXIST else { throw Errno(rawValue: errno) }
        return made == 0
    }

    /// Renames `source` to `target`, atomically, replacing what `target` named.
    public static func rename(_ source: String, to target: String) throws(Errno) {
        let renamed = PathBytes.withCString(source) { from in PathBytes.withCString(target) { Glibc.rename(from, $0) } }
        guard renamed == 0 else { throw Errno(rawValue: errno) }
    }

    /// The folder `path` is in: `.` for a bare name (whose folder would be ""), `/` for `/`.
    public static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// What the last failed system call of this thread said, in the system's words.
    public static var lastError: String { Self.message(errno) }

    /// The system's words for the error number `error`.
    public static func message(_ error: Int32) -> String { Errno(rawValue: error).description }

    /// Removes the file `path`, if it is there.
    public static func remove(_ path: String) {
        _ = PathBytes.withCString(path) { unlink($0) }
    }
}

import IngestCore

/// What one folder's files were when the walk listed them, as one digest: a re-run that finds the
/// digest an earlier run sealed, with nothing in the catalog changed since, knows every file of
/// the folder is done without asking the catalog of each.
///
/// Only a folder of plain files and folders has one: a zip, a sidecar without its file, an entry
/// that cannot be read or a Takeout or iCloud export makes outcomes of its own, which a seal
/// would hide.
public struct FolderSeal: Sendable, Equatable {
    /// The folder's path, as its files' paths begin.
    public var folder: String
    /// SHA-256 (hex) of every file's name, stamp and sidecar, in name order: any file added,
    /// removed, replaced or edited, or a sidecar changed, changes it.
    public var digest: String
    /// The files of this run's shard in it: what the folder counts for when it is settled.
    public var files: Int
    /// How many of those have an XMP sidecar (the run says how many files had one).
    public var sidecars: Int
    /// The paths of its first few files by name, for the examples of a report.
    public var firstPaths: [String]

    public init(folder: String, digest: String, files: Int, sidecars: Int = 0, firstPaths: [String] = []) {
        self.folder = folder
        self.digest = digest
        self.files = files
        self.sidecars = sidecars
        self.firstPaths = firstPaths
    }

    /// How many first paths a seal keeps: as many as a report shows examples of one reason.
    public static let examples = 3

    /// The folder of the file at `path`, as a seal names it; nil for a path with no folder.
    public static func folder(of path: String) -> Substring? {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return path[..<slash]
    }
}

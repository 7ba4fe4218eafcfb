import IngestCore

/// What the walk met: a file to ingest, or an entry it could not take, with the reason.
public enum DiscoveryItem: Sendable, Equatable {
    case file(DiscoveredFile)
    case problem(path: String, status: FileStatus, reason: String)

    public var file: DiscoveredFile? {
        if case .file(let file) = self { file } else { nil }
    }

    /// The file's path, or the entry's.
    public var path: String {
        switch self {
        case .file(let file): file.path
        case .problem(let path, _, _): path
        }
    }
}

import IngestCore

/// The verdict of looking at a file's first bytes.
public enum Sniffed: Sendable, Equatable {
    case supported(MediaKind)
    /// Not a photo photoingest ingests; the reason names what it looks like.
    case unsupported(reason: String)
}

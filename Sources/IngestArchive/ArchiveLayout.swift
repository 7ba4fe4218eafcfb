import IngestCore

/// Where an archive keeps each file, relative to its root: content-addressed by SHA-256,
/// fanned out by the first two hex digits so that no folder grows past a few thousand entries.
///
/// ```
/// originals/ab/abcdef….jpg
/// originals/ab/abcdef….xmp          (its XMP sidecar, when it came with one)
/// thumbnails/500/ab/abcdef….jpg
/// thumbnails/200/ab/abcdef….jpg
/// index.sqlite
/// damaged/abcdef….jpg               (an original verify found changed, moved aside)
/// ```
public enum ArchiveLayout {
    public static let index = "index.sqlite"
    public static let temporary = "tmp"
    /// Held by the run writing into the archive (a ``RunLock``).
    public static let lock = "run.lock"
    /// Where `verify` moves an original whose bytes no longer match its hash.
    public static let damaged = "damaged"

    public static func original(_ hash: ContentHash, kind: MediaKind) -> String {
        let hex = hash.hex
        return "originals/\(hex.prefix(2))/\(hex).\(kind.fileExtension)"
    }

    /// The sidecar beside an original, named as Lightroom names a raw file's (`NAME.xmp`).
    public static func sidecar(_ hash: ContentHash) -> String {
        let hex = hash.hex
        return "originals/\(hex.prefix(2))/\(hex).xmp"
    }

    public static func thumbnail(_ hash: ContentHash, edge: Int) -> String {
        let hex = hash.hex
        return "thumbnails/\(edge)/\(hex.prefix(2))/\(hex).jpg"
    }
}

/// What `verify` found wrong with an original the archive's index lists.
public enum ArchiveDamage: Sendable, Equatable, CustomStringConvertible {
    /// The original is not there (or cannot be opened).
    case originalMissing
    /// Its bytes no longer hash to the SHA-256 it is kept under (a flipped bit, a cut file).
    case originalDamaged(size: Int)
    /// The original is whole, but a thumbnail the index names is not there.
    case thumbnailMissing(String)

    public var description: String {
        switch self {
        case .originalMissing: "the original is missing"
        case .originalDamaged(let size):
            "the original's bytes changed (\(size) bytes; they no longer match its SHA-256)"
        case .thumbnailMissing(let path): "a thumbnail is missing (\(path))"
        }
    }
}

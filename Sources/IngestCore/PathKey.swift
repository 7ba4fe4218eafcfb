/// A path as a key compared byte for byte, as the file system and SQLite compare names. Swift's
/// `String` compares by Unicode canonical equivalence, so two folders whose names differ only in
/// normalization (`café` composed and decomposed, both possible on Linux) would be one key.
public struct PathKey: Hashable, Sendable {
    public let path: Substring

    public init(_ path: Substring) { self.path = path }
    public init(_ path: String) { self.path = Substring(path) }

    public static func == (left: PathKey, right: PathKey) -> Bool {
        left.path.utf8.elementsEqual(right.path.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        let hashed: Void? = self.path.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil { Array(self.path.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
    }
}

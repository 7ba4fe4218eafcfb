import Crypto

/// One of N parts of an import, so that N machines can split it: a file belongs to the shard
/// that a stable hash of its path, relative to the root it was found under, picks.
///
/// Relative paths make the split the same on every machine whatever the mount point; the hash
/// (SHA-256, first 8 bytes) is the same on every machine and every run.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 0-based, as Kubernetes' `JOB_COMPLETION_INDEX`.
    public var index: Int
    public var count: Int
    /// Files placed by a ``ShardPlan`` rather than by their hash: each one's shard, by the key
    /// ``contains(relativePath:)`` is given.
    public var placed: [String: Int] = [:]

    public init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(self.index)/\(self.count)" }

    /// The shard a relative path falls in.
    public static func of(relativePath: String, count: Int) -> Int {
        let digest = Array(SHA256.hash(data: Array(relativePath.utf8)))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % UInt64(count))
    }

    public func contains(relativePath: String) -> Bool {
        if !self.placed.isEmpty, let placed = self.placed[relativePath] { return placed == self.index }
        return Self.of(relativePath: relativePath, count: self.count) == self.index
    }
}

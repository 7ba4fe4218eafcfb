/// Shards drawn by size: the heaviest files of an import dealt out so that every shard gets about
/// the same bytes, the rest left to the path hash.
///
/// By path hash alone the shards hold the same number of files, but not the same bytes when the
/// import has videos: at 10,000 files over 32 shards the heaviest held twice the mean
/// (docs/performance.md). A plan takes every unit (a file, or the files of one name: a pair) of at
/// least 1/256 of a shard's share of the bytes, heaviest first, and gives each to the shard with
/// the fewest bytes so far, counting the bytes the hash gives each shard of the lighter units.
/// Every shard must use the same plan, so it is drawn once and kept in a file the shards share:
/// a file the plan does not name (added since) goes by its hash, in every shard alike.
public struct ShardPlan: Codable, Sendable, Equatable {
    public var count: Int
    /// Units the plan was drawn from, and their bytes.
    public var units: Int
    public var bytes: Int64
    /// The units placed by size: each one's shard, by its key (its path relative to its root,
    /// without extension, as ``Shard/contains(relativePath:)`` takes it).
    public var placed: [String: Int]
    /// The bytes each shard gets by the plan.
    public var loads: [Int64]
    /// When it was drawn (RFC 3339), said to the shards that read it.
    public var drawnAt: String?

    /// A unit is placed by size from this fraction of a shard's share of the bytes: at 10,000 and
    /// 100,000 files over 4 to 32 shards the heaviest shard is then within 1% of the mean, and
    /// a plan names at most 256 units a shard.
    public static let divisor: Int64 = 256

    /// The plan for `count` shards of the units `sizes` (bytes by key).
    public init(sizes: [String: Int64], count: Int) {
        self.count = count
        self.units = sizes.count
        self.bytes = sizes.values.reduce(0, +)
        let threshold = max(1, self.bytes / Int64(count) / Self.divisor)
        var loads = [Int64](repeating: 0, count: count)
        var heavy: [(key: String, bytes: Int64)] = []
        for (key, bytes) in sizes {
            if bytes >= threshold {
                heavy.append((key, bytes))
            } else {
                loads[Shard.of(relativePath: key, count: count)] += bytes
            }
        }
        // Heaviest first, ties by key: the same plan from the same files, whatever the walk's order.
        heavy.sort { ($0.bytes, $1.key) > ($1.bytes, $0.key) }
        var placed: [String: Int] = [:]
        placed.reserveCapacity(heavy.count)
        for unit in heavy {
            var lightest = 0
            for index in 1..<count where loads[index] < loads[lightest] { lightest = index }
            loads[lightest] += unit.bytes
            placed[unit.key] = lightest
        }
        self.placed = placed
        self.loads = loads
    }

    /// The heaviest shard's bytes against the mean (1.0 is even).
    public var spread: Double {
        guard self.bytes > 0, let heaviest = self.loads.max() else { return 1 }
        return Double(heaviest) / (Double(self.bytes) / Double(self.count))
    }
}

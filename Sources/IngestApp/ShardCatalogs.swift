import Foundation
import IngestCore
import IngestHashing

/// Where a sharded run's catalogs are: this shard's, and every other's found from its name.
///
/// Each shard keeps its own catalog, named by its index as the README's job array does
/// (`catalog-$SLURM_ARRAY_TASK_ID.sqlite`). The last number in the catalog's file name that equals
/// this shard's index (zero padding kept) is taken for the index, and swapped for each other's.
public struct ShardCatalogs: Sendable, Equatable, Codable {
    public var index: Int
    public var count: Int
    /// This shard's catalog.
    public var catalog: String
    /// Every shard's catalog, by index; nil when this one's name holds no number that is its index.
    public var catalogs: [String]?

    public init(shard: Shard, catalog: String) {
        self.index = shard.index
        self.count = shard.count
        self.catalog = catalog
        self.catalogs = ShardPaths.siblings(of: catalog, index: shard.index, count: shard.count)
    }

    /// The summary's line: which shard this was, and where the others' catalogs are expected.
    public var line: String {
        let which = "Shard \(self.index) of \(self.count) (--shard \(self.index)/\(self.count))"
        guard let catalogs = self.catalogs, let first = catalogs.first, let last = catalogs.last else {
            return which
                + "; this catalog's name holds no number that is the shard's index, so the other shards' catalogs "
                + "cannot be named from it (name each by its index, as catalog-\(self.index).sqlite)"
        }
        var line = which + "; every shard's catalog, named as this one is: \(first) … \(last)"
        if let pattern = ShardPaths.pattern(of: self.catalog, index: self.index) {
            line +=
                "; one report over them all: photoingest report '"
                + pattern.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        return line
    }
}

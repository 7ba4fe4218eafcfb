import Foundation
import IngestCore

/// A run of consecutive finds; the last batch of a walk says so, so that the total is known
/// as soon as the walk ends rather than when its last files are done.
public struct DiscoveryBatch: Sendable, Equatable {
    public var items: [DiscoveryItem]
    public var isLast: Bool
    /// In a watch's batch, the files sent only because they share a name with one that arrived
    /// (a pair's partner may be among them): one that is unchanged ends without an outcome.
    public var companions: Set<String> = []
    /// The seals of the folders listed since the batch before: a folder whose files (in this
    /// batch or later ones) are all found done is sealed.
    public var seals: [FolderSeal] = []
    /// The folders found settled since the batch before: their files are done, and not sent.
    public var settled: [FolderSeal] = []

    /// How many files it brings: its items', and the settled folders'.
    public var files: Int { self.items.count + self.settled.reduce(0) { $0 + $1.files } }
}

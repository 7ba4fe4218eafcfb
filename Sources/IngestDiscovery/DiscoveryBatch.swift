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
}

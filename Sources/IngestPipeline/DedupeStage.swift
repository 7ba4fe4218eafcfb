import IngestCore

/// Stage 4: diffs a photo's hash against the destination's hash set for the event.
/// Duplicates are counted, never thumbnailed nor uploaded.
public struct DedupeStage: Stage {
    public var hashes: HashSet

    public init(hashes: HashSet) {
        self.hashes = hashes
    }

    public enum Output: Sendable, Equatable {
        case new
        case duplicate(reason: String)
    }

    public func process(_ hash: ContentHash, context: StageContext) async throws(IngestError) -> Output {
        switch await self.hashes.claim(hash) {
        case .claimed: .new
        case .known: .duplicate(reason: "the event already holds these bytes")
        case .claimedInRun: .duplicate(reason: "another file of this run has the same bytes")
        }
    }
}

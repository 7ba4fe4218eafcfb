import IngestCore

/// Stage 4: diffs a photo's hash against each event's hash set, fetched once per run.
/// Duplicates are counted, never thumbnailed nor uploaded.
public struct DedupeStage: Stage {
    /// One set per event, by event id.
    public var hashes: [String: HashSet]

    public init(hashes: [String: HashSet]) {
        self.hashes = hashes
    }

    public struct Input: Sendable {
        public var hash: ContentHash
        public var event: Event
    }

    public enum Output: Sendable, Equatable {
        /// The caller holds the claim on these bytes for the event: it stores them, then settles it.
        case new
        case duplicate(reason: String)
    }

    public func process(_ input: Input, context: StageContext) async throws(IngestError) -> Output {
        guard let hashes = self.hashes[input.event.id] else {
            throw IngestError(.invalidConfiguration, "no hash set for event \(input.event.id)")
        }
        return switch try await hashes.claim(input.hash) {
        case .claimed: .new
        case .known: .duplicate(reason: Self.heldReason)
        case .claimedInRun: .duplicate(reason: "another file of this run has the same bytes")
        }
    }

    /// Why a photo whose bytes the destination held when the run began is a duplicate.
    static let heldReason = "the event already holds these bytes"

    /// Whether the event already holds the bytes (the destination, or this run): no claim taken.
    /// A hash set that cannot be read answers false, so that the claim meets its error.
    func holds(_ hash: ContentHash, event: Event) async -> Bool {
        (try? await self.hashes[event.id]?.holds(hash)) ?? false
    }

    /// Settles a claim: stored (whoever waits on the bytes is a duplicate), or released (the next
    /// file with them takes over).
    func settle(_ hash: ContentHash, event: Event, stored: Bool) {
        guard let hashes = self.hashes[event.id] else { return }
        if stored { hashes.stored(hash) } else { hashes.release(hash) }
    }
}

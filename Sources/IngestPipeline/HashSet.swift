import IngestCore
import Synchronization

/// The hashes the destination already holds for the event, fetched once per run, plus those
/// this run has claimed: the same bytes twice in the input are stored once.
public final class HashSet: Sendable {
    private let state: Mutex<(known: Set<ContentHash>, claimed: Set<ContentHash>)>

    public init(known: Set<ContentHash>) {
        self.state = Mutex((known, []))
    }

    public enum Claim: Sendable, Equatable {
        /// Nobody holds these bytes: the caller stores them (and releases the claim if that fails).
        case claimed
        /// The destination already holds them.
        case known
        /// Another file of this run has the same bytes.
        case claimedInRun
    }

    public func claim(_ hash: ContentHash) -> Claim {
        self.state.withLock { state in
            if state.known.contains(hash) { return .known }
            if !state.claimed.insert(hash).inserted { return .claimedInRun }
            return .claimed
        }
    }

    /// Gives up a claim whose store failed, so that a later file with the same bytes may try.
    public func release(_ hash: ContentHash) {
        self.state.withLock { _ = $0.claimed.remove(hash) }
    }
}

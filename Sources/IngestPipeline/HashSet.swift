import IngestCore
import Synchronization

/// The hashes the destination already holds for the event, fetched once per run, plus those
/// this run is storing: the same bytes twice in the input are stored once.
///
/// A file whose bytes another file of the run is storing waits for that file's outcome: counted
/// as a duplicate once the bytes are stored, or taking over when the store failed. Counting it a
/// duplicate at once would lose it for good if the first one failed (the catalog would call it
/// done).
public final class HashSet: Sendable {
    private struct State {
        /// Hashes this run stored.
        var stored: Set<ContentHash> = []
        /// Hashes being stored, with the files waiting for the outcome, first come first.
        var claimed: [ContentHash: [CheckedContinuation<Claim, Never>]] = [:]
    }

    /// What the destination held at the start: read without the lock, it never changes.
    private let known: KnownHashes
    private let state = Mutex(State())

    public init(known: KnownHashes) {
        self.known = known
    }

    public enum Claim: Sendable, Equatable {
        /// Nobody holds these bytes: the caller stores them, then calls ``stored(_:)`` or ``release(_:)``.
        case claimed
        /// The destination already holds them.
        case known
        /// Another file of this run stored the same bytes.
        case claimedInRun
    }

    /// Claims `hash` for storing; waits while another file of the run is storing it.
    public func claim(_ hash: ContentHash) async -> Claim {
        if self.known.contains(hash) { return .known }
        return await withCheckedContinuation { continuation in
            let answer: Claim? = self.state.withLock { state in
                if state.stored.contains(hash) { return .claimedInRun }
                guard state.claimed[hash] != nil else {
                    state.claimed[hash] = []
                    return .claimed
                }
                state.claimed[hash]!.append(continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// The claimant stored the bytes (or found them stored): whoever waits on them is a duplicate.
    public func stored(_ hash: ContentHash) {
        let waiting = self.state.withLock { state in
            state.stored.insert(hash)
            return state.claimed.removeValue(forKey: hash) ?? []
        }
        for continuation in waiting { continuation.resume(returning: .claimedInRun) }
    }

    /// The claimant's store failed: the first file waiting takes the claim over, the rest wait on.
    public func release(_ hash: ContentHash) {
        let next: CheckedContinuation<Claim, Never>? = self.state.withLock { state in
            guard var waiting = state.claimed[hash], !waiting.isEmpty else {
                state.claimed[hash] = nil
                return nil
            }
            let first = waiting.removeFirst()
            state.claimed[hash] = waiting
            return first
        }
        next?.resume(returning: .claimed)
    }
}

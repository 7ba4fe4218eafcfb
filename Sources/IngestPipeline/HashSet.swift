import IngestCore
import IngestDestinations

/// The hashes the destination already holds for the event, fetched once per run, plus those
/// this run is storing: the same bytes twice in the input are stored once.
///
/// The destination's hashes are fetched at the start, or on the first claim where the destination
/// says that is as safe (the local archive): a nightly re-run that finds nothing new never loads
/// its 100,000 hashes.
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
        /// The destination answered "duplicate" for bytes this set did not hold: someone else
        /// stored them since it was read.
        var stale = false
    }

    /// What the destination held at the start: it never changes once read.
    private let known: Locked<Task<KnownHashes, any Error>?>
    private let load: @Sendable () async throws(IngestError) -> KnownHashes
    private let state = Locked(State())

    public init(_ source: HashSource) {
        switch source {
        case .fetched(let known):
            self.load = { known }
        case .onFirstClaim(let load):
            self.load = load
        }
        self.known = Locked(nil)
    }

    public convenience init(known: KnownHashes) {
        self.init(.fetched(known))
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
    ///
    /// - Throws: ``IngestError`` when the destination's hashes could not be read.
    public func claim(_ hash: ContentHash) async throws(IngestError) -> Claim {
        if try await self.knownHashes().contains(hash) { return .known }
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

    /// Whether the destination or this run already holds `hash`, without claiming it: a file
    /// known from an earlier run is read again only when some event may still take it.
    ///
    /// - Throws: ``IngestError`` when the destination's hashes could not be read.
    public func holds(_ hash: ContentHash) async throws(IngestError) -> Bool {
        if try await self.knownHashes().contains(hash) { return true }
        return self.state.withLock { $0.stored.contains(hash) }
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

    /// What the destination holds now, fetched again (a watch's refresh: phones upload to a live
    /// event too). Hashes this run stored that the destination now lists are forgotten here, so
    /// the set does not grow with a watch's life. Claims in flight are left as they are.
    public func refresh(_ known: KnownHashes) {
        self.known.withLock { $0 = Task { known } }
        self.state.withLock { state in
            state.stored = state.stored.filter { !known.contains($0) }
            state.stale = false
        }
    }

    /// Says that the destination held bytes this set did not (it answered an upload with
    /// "duplicate"): what it holds was read before someone else stored them.
    public func markStale() {
        self.state.withLock { $0.stale = true }
    }

    /// Whether ``markStale()`` was called since the last time this was asked, or since a refresh.
    public func takeStale() -> Bool {
        self.state.withLock { state in
            defer { state.stale = false }
            return state.stale
        }
    }

    /// The destination's hashes, read by the first caller; the others wait for the same read.
    private func knownHashes() async throws(IngestError) -> KnownHashes {
        let load = self.load
        let task = self.known.withLock { task in
            if let task { return task }
            let started = Task { () async throws -> KnownHashes in try await load() }
            task = started
            return started
        }
        do {
            return try await task.value
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(.archiveUnusable, "cannot read the destination's hashes", because: error)
        }
    }
}

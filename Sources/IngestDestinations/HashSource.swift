import IngestCore

/// Where a destination's hashes for an event come from, for the pipeline's hash set.
public enum HashSource: Sendable {
    /// Fetched before the run began.
    case fetched(KnownHashes)
    /// Read on the first claim, once.
    case onFirstClaim(@Sendable () async throws(IngestError) -> KnownHashes)
}

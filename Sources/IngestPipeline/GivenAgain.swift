import IngestCore
import IngestOutcome

/// What an earlier run gave a file to its events, for the notes of the outcomes that give it
/// again: the user sees why a photo was sent twice, never a second copy without a word.
struct GivenAgain: Sendable {
    /// The events where `verify` found the file missing since: why, by event index.
    var missing: [Int: String] = [:]
    /// The events an earlier run gave the file to whose bytes changed since, and the hash of the
    /// bytes they were given (nil when the catalog no longer has it).
    var changed: [Int] = []
    var earlierHash: ContentHash?

    /// The note for this run's outcome in the event at `index`, when it gives the file again.
    func note(at index: Int, for outcome: FileOutcome) -> String? {
        guard case .stored = outcome.verdict else { return nil }
        if let why = self.missing[index] { return Verdict.sentAgainNote + why }
        guard self.changed.contains(index), let earlier = self.earlierHash, outcome.facts.sha256 != earlier else {
            return nil
        }
        return Verdict.sentBeforeNote + " (sha256 \(earlier.hex.prefix(12))…); "
            + "that copy stays, as the destination cannot remove it"
    }
}

import IngestCore
import IngestDestinations
import IngestOutcome

/// A destination that keeps, in memory, what it is given: a stage or the whole pipeline tested
/// without an archive or a server. It answers as a server does: a hash set fetched per event, a
/// photo it holds already is a duplicate, and a file named in `failing` is refused.
final class RecordingDestination: Destination {
    struct Stored: Sendable, Equatable {
        var event: String
        var filename: String
        var hash: ContentHash
        var hasThumbnails: Bool
    }

    let identity: String
    let kind: DestinationKind
    let holdingsChangeMeanwhile = false
    let failing: Set<String>
    private let state: Locked<(held: [String: Set<ContentHash>], stored: [Stored])>

    init(kind: DestinationKind = .server, held: [String: Set<ContentHash>] = [:], failing: Set<String> = []) {
        self.kind = kind
        self.identity = kind.identity(at: "memory")
        self.failing = failing
        self.state = Locked((held, []))
    }

    /// What it was given, in order.
    var stored: [Stored] { self.state.withLock { $0.stored } }

    func prepare(_ event: Event) async throws(IngestError) -> HashSource {
        .fetched(KnownHashes(self.state.withLock { $0.held[event.id] ?? [] }))
    }

    func store(_ photo: PreparedPhoto, in event: Event) async throws(IngestError) -> StoreResult {
        if self.failing.contains(photo.filename) {
            throw IngestError(.storeFailed, "refused by the recording destination")
        }
        return self.state.withLock { state in
            guard state.held[event.id, default: []].insert(photo.file.hash).inserted else { return .duplicate }
            state.stored.append(
                Stored(
                    event: event.id, filename: photo.filename, hash: photo.file.hash,
                    hasThumbnails: photo.thumbnails != nil))
            return .stored
        }
    }
}

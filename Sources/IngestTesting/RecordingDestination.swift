import IngestCore
import IngestDestinations
import IngestOutcome

/// A destination that keeps, in memory, what it is given: a stage or the whole pipeline tested
/// without an archive or a server. It answers as a server does: a hash set fetched per event, a
/// photo it holds already is a duplicate, and a file named in `failing` is refused.
public final class RecordingDestination: Destination {
    public struct Stored: Sendable, Equatable {
        public var event: String
        public var filename: String
        public var hash: ContentHash
        public var hasThumbnails: Bool
    }

    public let identity: String
    public let kind: DestinationKind
    public let holdingsChangeMeanwhile = false
    public let failing: Set<String>
    private let state: Locked<(held: [String: Set<ContentHash>], stored: [Stored])>

    public init(kind: DestinationKind = .server, held: [String: Set<ContentHash>] = [:], failing: Set<String> = []) {
        self.kind = kind
        self.identity = kind.identity(at: "memory")
        self.failing = failing
        self.state = Locked((held, []))
    }

    /// What it was given, in order.
    public var stored: [Stored] { self.state.withLock { $0.stored } }

    public func prepare(_ event: Event) async throws(IngestError) -> HashSource {
        .fetched(KnownHashes(self.state.withLock { $0.held[event.id] ?? [] }))
    }

    public func store(_ photo: PreparedPhoto, in event: Event) async throws(IngestError) -> StoreResult {
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

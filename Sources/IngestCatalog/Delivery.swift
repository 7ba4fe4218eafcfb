import IngestCore

/// A file the catalog holds as given to an event (uploaded or stored, or found there already):
/// what `verify` checks the destination still holds.
public struct Delivery: Sendable, Equatable {
    public var path: String
    /// The event's id.
    public var event: String
    public var hash: ContentHash
    public var status: FileStatus

    public init(path: String, event: String, hash: ContentHash, status: FileStatus) {
        self.path = path
        self.event = event
        self.hash = hash
        self.status = status
    }
}

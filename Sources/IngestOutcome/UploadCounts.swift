/// The uploads of a run at one moment: those on the wire, and those waiting their turn.
///
/// No more than the connections allowed (`--uploads`) can be sending at once; the others begun
/// wait for a connection, or for their retry's back-off, and are queued.
public struct UploadCounts: Sendable, Equatable {
    public var sending: Int
    public var queued: Int

    public init(sending: Int, queued: Int) {
        self.sending = sending
        self.queued = queued
    }

    /// `begun` uploads over `connections`: as many send as there are connections.
    public init(begun: Int, connections: Int) {
        self.sending = min(begun, connections)
        self.queued = max(0, begun - connections)
    }
}

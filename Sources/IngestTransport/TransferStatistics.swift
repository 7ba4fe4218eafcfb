/// What the client did, for the run's summary.
public struct TransferStatistics: Sendable, Equatable {
    public var requests = 0
    public var retries = 0
    public var bytesUploaded: Int64 = 0
    /// Uploads begun and not ended: sending, waiting for a connection or for a retry.
    public var uploadsInFlight = 0
}

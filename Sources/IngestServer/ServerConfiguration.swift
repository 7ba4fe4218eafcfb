import Foundation

/// How `photoshare-server serve` runs.
public struct ServerConfiguration: Sendable {
    public var dataDirectory: String
    public var host: String
    public var port: Int
    public var secret: String
    /// Uploads larger than this are refused with 413, counted as they stream in.
    public var maxUploadBytes: Int
    public var faults: Faults

    /// Injected failures, for tests and drills. Rates are probabilities per request.
    public struct Faults: Sendable, Equatable {
        public var failRate: Double = 0
        public var failStatus: Int = 503
        /// 429 with `Retry-After: 1`.
        public var throttleRate: Double = 0
        /// Uploads only: the connection is closed after part of the body was read.
        public var dropRate: Double = 0
        public var latencyMilliseconds: Int = 0
        /// Uploads only: accepted and never answered (until the client gives up).
        public var hangRate: Double = 0
        /// Upload bodies read no faster than this (a slow reader); 0 for no limit.
        public var readBytesPerSecond: Int = 0
        /// Seeds the chance of every fault, so that a drill can be replayed.
        public var seed: UInt64 = 0
        public init() {}

        public var isNone: Bool {
            var none = Faults()
            none.seed = self.seed
            return self == none
        }
    }

    public init(
        dataDirectory: String, host: String = "127.0.0.1", port: Int = 8080, secret: String,
        maxUploadBytes: Int = 8 << 30, faults: Faults = Faults()
    ) {
        self.dataDirectory = dataDirectory
        self.host = host
        self.port = port
        self.secret = secret
        self.maxUploadBytes = maxUploadBytes
        self.faults = faults
    }
}

import IngestCore

/// What the catalog remembers of one file for one destination and event.
public struct CatalogRecord: Sendable, Equatable {
    public var path: String
    public var stamp: FileStamp
    public var sha256: ContentHash?
    public var mediaType: String?
    public var capture: CaptureTime?
    public var destination: String
    public var event: String
    /// The window the file was judged against, so that a changed window judges it again.
    public var window: String
    public var status: FileStatus
    public var reason: String?
    /// The failure's code (``IngestError/Code``), for failed files.
    public var errorCode: String?

    public init(
        path: String, stamp: FileStamp, sha256: ContentHash?, mediaType: String?, capture: CaptureTime?,
        destination: String, event: String, window: String, status: FileStatus, reason: String?, errorCode: String? = nil
    ) {
        self.path = path
        self.stamp = stamp
        self.sha256 = sha256
        self.mediaType = mediaType
        self.capture = capture
        self.destination = destination
        self.event = event
        self.window = window
        self.status = status
        self.reason = reason
        self.errorCode = errorCode
    }
}

/// What an earlier run decided about a path, as the catalog has it.
public struct CatalogEntry: Sendable, Equatable {
    public var stamp: FileStamp
    public var status: FileStatus
    public var window: String
    public var reason: String?

    public init(stamp: FileStamp, status: FileStatus, window: String, reason: String? = nil) {
        self.stamp = stamp
        self.status = status
        self.window = window
        self.reason = reason
    }

    /// Whether a run judging against `window` can skip the file when its stamp is `stamp`.
    public func isDone(stamp: FileStamp, window: String) -> Bool {
        guard self.stamp == stamp, self.status.isFinal else { return false }
        return self.status != .outside || self.window == window
    }
}

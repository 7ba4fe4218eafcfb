import IngestCore
import IngestDating

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
    public var window: EventWindow
    public var status: FileStatus
    public var reason: String?
    /// The failure's code (``IngestError/Code``), for failed files.
    public var errorCode: String?
    /// The zone the capture time was read in, when it was assumed (`--timezone` or this machine's)
    /// rather than written by the camera: a run in another zone dates the file again.
    public var assumedZone: String?
    /// The file this one is paired with, if any.
    public var pair: FilePair?
    /// The body that took it, when the file was read.
    public var camera: CameraBody?
    /// The stamp of the XMP sidecar the file was dated with (its fingerprint), if it had one.
    public var sidecar: String?

    public init(
        path: String, stamp: FileStamp, sha256: ContentHash?, mediaType: String?, capture: CaptureTime?,
        destination: String, event: String, window: EventWindow, status: FileStatus, reason: String?,
        errorCode: String? = nil,
        assumedZone: String? = nil, pair: FilePair? = nil, camera: CameraBody? = nil, sidecar: String? = nil
    ) {
        self.sidecar = sidecar
        self.pair = pair
        self.camera = camera
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
        self.assumedZone = assumedZone
    }
}

/// What an earlier run decided about a path, as the catalog has it.
///
/// Read for every file a re-run walks, so only what the verdict depends on is filled in: the
/// window and the assumed zone of an outside verdict, the reason and code of a failure.
public struct CatalogEntry: Sendable, Equatable {
    public var stamp: FileStamp
    public var status: FileStatus
    /// The window an outside verdict was judged against (nil for the other verdicts).
    public var window: EventWindow?
    /// Why the file failed.
    public var reason: String?
    /// The failure's code (``IngestError/Code``), for failed files.
    public var errorCode: String?
    /// The zone an outside verdict's capture time was read in, if it was assumed.
    public var assumedZone: String?
    /// The file of an outside verdict has a GPS position that dated nothing (no zone boundaries).
    public var positionUnused: Bool
    /// The seconds a clock offset added to an outside verdict's camera clock.
    public var clockOffset: Int?
    /// The fingerprint of the XMP sidecar the file was dated with, if any.
    public var sidecar: String?

    public init(
        stamp: FileStamp, status: FileStatus, window: EventWindow? = nil, reason: String? = nil,
        errorCode: String? = nil,
        assumedZone: String? = nil, positionUnused: Bool = false, clockOffset: Int? = nil, sidecar: String? = nil
    ) {
        self.sidecar = sidecar
        self.clockOffset = clockOffset
        self.positionUnused = positionUnused
        self.stamp = stamp
        self.status = status
        self.window = window
        self.reason = reason
        self.errorCode = errorCode
        self.assumedZone = assumedZone
    }

    /// Whether an earlier run failed on these very bytes (same stamp) for a reason that lies in
    /// them: trying again would fail the same way.
    public func isKnownBroken(stamp: FileStamp) -> Bool {
        stamp.isUnchanged(since: self.stamp) && self.status == .failed
            && self.errorCode.map { IngestError.Code($0).isInTheFile } == true
    }

    /// Whether a run judging against `window`, reading times without a zone in `zone`, can skip
    /// the file when its stamp is `stamp`.
    ///
    /// "Outside" is final only for the window it was judged against. When the capture time's zone
    /// was assumed, it is final only for that zone, and for a run as blind to GPS positions as the
    /// one that judged it (`readsPositions`: this run has zone boundaries). Otherwise the photo
    /// may fall inside. So is it when a camera's clock was corrected, or this run corrects some
    /// (`correctsClocks`): the file's facts then say whether its time moved. A photo already stored
    /// stays stored whatever the zone or the clock. A sidecar added, changed or removed since
    /// (`sidecar`, its fingerprint now) dates the file again in every event.
    public func isDone(
        stamp: FileStamp, window: EventWindow, zone: String, readsPositions: Bool = false, correctsClocks: Bool = false,
        sidecar: String? = nil
    ) -> Bool {
        guard stamp.isUnchanged(since: self.stamp), self.sidecar == sidecar, self.status.isFinal else { return false }
        guard self.status == .outside else { return true }
        return self.window == window && self.clockOffset == nil && !correctsClocks
            && (self.assumedZone == nil || (self.assumedZone == zone && !(self.positionUnused && readsPositions)))
    }
}

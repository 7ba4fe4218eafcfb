import Foundation
import IngestCore
import IngestDating

/// One file's outcome for one event, as the report shows it.
public struct ReportPhoto: Sendable, Equatable {
    public var path: String
    public var status: FileStatus
    public var kind: MediaKind?
    /// Why it was skipped, failed, counted as a duplicate or left outside.
    public var reason: String?
    public var capture: CaptureTime?
    /// Seconds outside the event's window; 0 inside, nil when undated.
    public var outsideBy: TimeInterval?
    /// Why the photo deserves a second look (near an edge, inside only in the assumed zone).
    public var nearEdge: String?
    /// The SHA-256 of its bytes, which names its thumbnail in an archive.
    public var sha256: ContentHash?
    /// The body that took it, when the file said.
    public var camera: CameraBody?

    public init(
        path: String, status: FileStatus, kind: MediaKind? = nil, reason: String? = nil, capture: CaptureTime? = nil,
        outsideBy: TimeInterval? = nil, nearEdge: String? = nil, sha256: ContentHash? = nil
    ) {
        self.path = path
        self.status = status
        self.kind = kind
        self.reason = reason
        self.capture = capture
        self.outsideBy = outsideBy
        self.nearEdge = nearEdge
        self.sha256 = sha256
    }

    public var name: String { (self.path as NSString).lastPathComponent }

    /// The instants the capture could have been at: for a wall-clock time read in an assumed zone,
    /// every real offset (-12:00 to +14:00) gives one; otherwise the instant alone.
    public var possibleInstants: ClosedRange<Date>? {
        guard let capture = self.capture else { return nil }
        guard capture.source == .exifAssumedZone, let wall = capture.localTime else {
            return capture.instant...capture.instant
        }
        return Date(
            timeIntervalSince1970: wall.secondsAsIfUTC - 14 * 3_600)...Date(
                timeIntervalSince1970: wall.secondsAsIfUTC + 12 * 3_600)
    }
}

import Foundation
import IngestCore

/// How one file ended, with what the run learned about it on the way.
public struct FileOutcome: Sendable {
    public var path: String
    public var stamp: FileStamp?
    public var kind: MediaKind?
    public var sha256: ContentHash?
    public var capture: CaptureTime?
    public var status: FileStatus
    /// Why it was skipped, failed or counted as duplicate.
    public var reason: String?
    /// The failure's code, for failed files (and for known broken ones, the earlier failure's).
    public var errorCode: IngestError.Code?
    /// How far outside the event's window the photo was taken, for outside files.
    public var outsideBy: TimeInterval?
    /// Set when the photo is close enough to the window's edge, or inside only by an assumed zone,
    /// that its time zone deserves a second look.
    public var nearEdge: NearEdge?
    /// The file this one was paired with; a paired file goes to the events of its pair's first
    /// file (a Live Photo's still, a raw photo's JPEG).
    public var pair: FilePair?
    /// True when nothing was written because the run was a dry run.
    public var dryRun: Bool
    /// True for a file an earlier run failed on for a reason in its bytes, unchanged since: not
    /// tried again (``reason`` and ``errorCode`` are that run's), and not a failure of this run.
    public var knownBroken = false
    /// Whether the catalog records this outcome (not for files an earlier run finished, nor for
    /// walk problems, which have no file to identify).
    public var recordInCatalog: Bool
    public var timings: StageTimings.Sample

    public init(path: String, stamp: FileStamp?, status: FileStatus, reason: String? = nil) {
        self.path = path
        self.stamp = stamp
        self.status = status
        self.reason = reason
        self.dryRun = false
        self.recordInCatalog = stamp != nil
        self.timings = StageTimings.Sample()
    }

    public var size: Int64? { self.stamp?.size }

    /// The reason of a file an earlier run finished and that has not changed since.
    public static let unchangedReason = "unchanged since an earlier run"

    /// A file an earlier run found broken, its bytes unchanged: skipped, with that run's reason.
    init(knownBroken file: DiscoveredFile, reason: String?, errorCode: IngestError.Code?) {
        self.init(
            path: file.path, stamp: file.stamp, status: .skipped,
            reason: "known broken, unchanged since an earlier run: " + (reason ?? "failed"))
        self.errorCode = errorCode
        self.knownBroken = true
        self.recordInCatalog = false
    }
}

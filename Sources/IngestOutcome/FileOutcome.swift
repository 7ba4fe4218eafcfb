import Foundation
import IngestCore
import IngestDating

/// How one file ended in one event: the file's facts, the same in every event, and the event's
/// verdict on it.
public struct FileOutcome: Sendable {
    public var facts: FileFacts
    public var verdict: Verdict
    /// Set when the photo is close enough to the window's edge, or inside only by an assumed zone,
    /// that its time zone deserves a second look.
    public var nearEdge: NearEdge?
    public var timings: StageTimings.Sample

    public init(_ facts: FileFacts, _ verdict: Verdict, timings: StageTimings.Sample = StageTimings.Sample()) {
        self.facts = facts
        self.verdict = verdict
        self.timings = timings
    }

    public var path: String { self.facts.path }
    public var stamp: FileStamp? { self.facts.stamp }
    public var kind: MediaKind? { self.facts.kind }
    public var sha256: ContentHash? { self.facts.sha256 }
    public var capture: CaptureTime? { self.facts.capture }
    public var pair: FilePair? { self.facts.pair }
    public var camera: CameraBody? { self.facts.camera }
    public var size: Int64? { self.facts.size }

    /// The reason of a file an earlier run finished and that has not changed since.
    public static let unchangedReason = Verdict.unchangedReason

    public var status: FileStatus { self.verdict.status }
    public var reason: String? { self.verdict.reason }
    public var errorCode: IngestError.Code? { self.verdict.errorCode }
    public var outsideBy: TimeInterval? { self.verdict.outsideBy }
    /// True when nothing was written because the run was a dry run.
    public var dryRun: Bool { self.verdict == .wouldStore }
    /// True for a file an earlier run failed on for a reason in its bytes, unchanged since.
    public var knownBroken: Bool {
        if case .knownBroken = self.verdict { return true }
        return false
    }

    /// Whether the catalog records this outcome: not for files an earlier run finished or found
    /// broken (their records stand), nor for walk problems, which have no file to identify.
    public var recordInCatalog: Bool {
        switch self.verdict {
        case .unchanged, .knownBroken: false
        default: self.facts.stamp != nil
        }
    }
}

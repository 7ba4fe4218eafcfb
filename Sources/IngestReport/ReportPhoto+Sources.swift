import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestOutcome

extension ReportPhoto {
    /// A file's outcome for one event as the run decided it.
    public init(_ outcome: FileOutcome) {
        self.init(
            path: outcome.path, status: outcome.status, kind: outcome.kind, reason: outcome.reason,
            capture: outcome.capture, outsideBy: outcome.outsideBy, nearEdge: outcome.nearEdge?.description,
            sha256: outcome.sha256)
        self.camera = outcome.camera
    }

    /// A file's outcome as the catalog recorded it; how far outside and how near an edge it is are
    /// worked out again against `window` with `nearEdgeMargin`, as the run did (`otherOffsets` as
    /// ``EventWindow/nearEdge(_:margin:otherOffsets:)`` takes them).
    public init(
        _ record: OutcomeRecord, window: EventWindow, nearEdgeMargin: TimeInterval, otherOffsets: Set<Int>? = []
    ) {
        let placed = record.status.isPlaced
        let capture = record.capture
        self.init(
            path: record.path, status: record.status, kind: record.kind, reason: record.reason, capture: capture,
            outsideBy: placed ? capture.map { window.distance(to: $0.instant) } : nil,
            nearEdge: placed
                ? capture.flatMap { window.nearEdge($0, margin: nearEdgeMargin, otherOffsets: otherOffsets) }?
                    .description : nil,
            sha256: record.sha256)
        self.camera = record.camera.isEmpty ? nil : record.camera
    }
}

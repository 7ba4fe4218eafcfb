import Foundation
import IngestCore

/// Stage 3: decides whether a photo belongs to the event, comparing UTC instants, both ends
/// of the window included.
public struct EventStage: Stage {
    public var event: Event
    /// Outside photos closer than this to the window are listed for a second look.
    public var nearEdgeMargin: TimeInterval

    public init(event: Event, nearEdgeMargin: TimeInterval) {
        self.event = event
        self.nearEdgeMargin = nearEdgeMargin
    }

    public struct Output: Sendable, Equatable {
        /// Seconds outside the window; 0 inside.
        public var distance: TimeInterval
        public var nearEdge: NearEdge?
        public var isInside: Bool { self.distance == 0 }
    }

    public func process(_ capture: CaptureTime, context: StageContext) async throws(IngestError) -> Output {
        Output(
            distance: self.event.window.distance(to: capture.instant),
            nearEdge: self.event.window.nearEdge(capture, margin: self.nearEdgeMargin))
    }
}

import Foundation
import IngestCore

/// Stage 3: places a photo against every event's window, comparing UTC instants, both ends of
/// each window included. A photo may be inside several windows, or none.
public struct EventStage: Stage {
    /// Outside photos closer than this to a window are listed for a second look.
    public var nearEdgeMargin: TimeInterval

    public init(nearEdgeMargin: TimeInterval) {
        self.nearEdgeMargin = nearEdgeMargin
    }

    public struct Input: Sendable {
        public var capture: CaptureTime
        public var events: [Event]
    }

    /// Where the photo stands against one event.
    public struct Placement: Sendable, Equatable {
        /// Seconds outside the window; 0 inside.
        public var distance: TimeInterval
        public var nearEdge: NearEdge?
        public var isInside: Bool { self.distance == 0 }
    }

    /// One placement per event, in the order given.
    public func process(_ input: Input, context: StageContext) async throws(IngestError) -> [Placement] {
        input.events.map { event in
            Placement(
                distance: event.window.distance(to: input.capture.instant),
                nearEdge: event.window.nearEdge(input.capture, margin: self.nearEdgeMargin))
        }
    }
}

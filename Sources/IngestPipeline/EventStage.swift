import Foundation
import IngestCore

/// Stage 3: decides whether a photo belongs to the event, comparing UTC instants, both ends
/// of the window included.
public struct EventStage: Stage {
    public var event: Event

    public init(event: Event) {
        self.event = event
    }

    public enum Output: Sendable, Equatable {
        case inside
        /// Outside the window by this many seconds.
        case outside(by: TimeInterval)
    }

    public func process(_ capture: CaptureTime, context: StageContext) async throws(IngestError) -> Output {
        let distance = self.event.window.distance(to: capture.instant)
        return distance == 0 ? .inside : .outside(by: distance)
    }
}

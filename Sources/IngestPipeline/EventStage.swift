import Foundation
import IngestCore
import IngestDating
import IngestOutcome

/// Stage 3: places a photo against every event's window, comparing UTC instants, both ends of
/// each window included. A photo may be inside several windows, or none.
public struct EventStage: Stage {
    /// Outside photos closer than this to a window are listed for a second look.
    public var nearEdgeMargin: TimeInterval
    /// The offsets (seconds east of UTC) the run's photos were taken at, as far as they say:
    /// plausible zones for a photo whose zone was guessed. Nil when the user gave the zone.
    let offsetsSeen: Locked<Set<Int>>?
    /// What becomes of a file dated only by its modification time.
    public var undated: UndatedPolicy

    /// - Parameter zoneIsGuessed: whether times without an offset are read in this machine's zone
    ///   (no `--timezone`): only then is a photo inside "only in the assumed zone".
    public init(nearEdgeMargin: TimeInterval, zoneIsGuessed: Bool = true, undated: UndatedPolicy = .open) {
        self.nearEdgeMargin = nearEdgeMargin
        self.offsetsSeen = zoneIsGuessed ? Locked([]) : nil
        self.undated = undated
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
        /// The verdict of a time too weak to place against the window (undated, or skipped).
        public var weakTime: Verdict?
        public var isInside: Bool { self.distance == 0 && self.weakTime == nil }
    }

    /// One placement per event, in the order given.
    public func process(_ input: Input, context: StageContext) async throws(IngestError) -> [Placement] {
        let capture = input.capture
        if !capture.source.isAssumed, let offset = capture.offsetSeconds {
            self.offsetsSeen?.withLock { _ = $0.insert(offset) }
        }
        // Only a time read in a guessed zone weighs the others' offsets: no copy for the rest.
        let others: Set<Int>? = capture.source == .exifAssumedZone ? self.offsetsSeen?.withLock { $0 } : []
        return input.events.map { event in
            if capture.source == .fileMTime, let verdict = self.undated.verdict(in: event.window) {
                return Placement(distance: 0, weakTime: verdict)
            }
            if let day = capture.wholeDay {
                return Self.place(day, in: event.window)
            }
            return Placement(
                distance: event.window.distance(to: capture.instant),
                nearEdge: event.window.nearEdge(capture, margin: self.nearEdgeMargin, otherOffsets: others))
        }
    }

    /// A file dated to a whole day: inside a window that holds all of it, outside one that holds
    /// none of it (by the distance from its nearer end), undated in one that holds a part.
    static func place(_ day: ClosedRange<Date>, in window: EventWindow) -> Placement {
        let (first, last) = (window.distance(to: day.lowerBound), window.distance(to: day.upperBound))
        if first == 0 && last == 0 { return Placement(distance: 0) }
        let overlaps =
            (window.start.map { $0 <= day.upperBound } ?? true) && (window.end.map { $0 >= day.lowerBound } ?? true)
        guard overlaps else { return Placement(distance: min(first, last)) }
        return Placement(
            distance: 0,
            weakTime: .undated("dated to the day only, by its name, and the window holds only part of that day"))
    }
}

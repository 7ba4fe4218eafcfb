import Foundation
import IngestCore

/// The timeline of an event as the page draws it: lanes, ticks, marks and the window's span.
extension PageView.TimelineView {
    init(_ timeline: Timeline, anchor: String, archive: Bool, caption: String? = nil) {
        func number(_ value: Double) -> String { String(format: "%.1f", value) }
        let top = 4.0
        let lanesHeight = Double(timeline.lanes.count) * Timeline.laneHeight
        self.width = number(Timeline.width)
        self.height = number(timeline.height)
        let start = timeline.windowStart ?? Timeline.left
        let end = timeline.windowEnd ?? (Timeline.width - 10)
        self.windowX = number(start)
        self.windowWidth = number(max(1, end - start))
        self.windowHeight = number(lanesHeight)
        self.lanes = timeline.lanes.enumerated().map { index, lane in
            let y = top + Double(index) * Timeline.laneHeight
            let label =
                switch lane {
                case .outcome(let status): HTMLReport.label(status, archive: archive)
                case .camera(let body): body.description
                }
            return PageView.Lane(y: number(y), labelY: number(y + Timeline.laneHeight / 2 + 4), label: label)
        }
        let byCamera = timeline.lanes.first.map { if case .camera = $0 { true } else { false } } ?? false
        self.rows = byCamera ? "one row per camera" : "one row per outcome"
        self.caption =
            caption
            ?? "The shaded band is the event's window (UTC). A bar through a mark spans every instant the photo could have if the zone assumed for it is wrong."
        self.ticks = timeline.ticks.map {
            PageView.Tick(x: number($0.x), y: number(top + lanesHeight + 14), label: $0.label)
        }
        self.marks = timeline.marks.map { mark in
            // A little spread within the lane, so that photos taken together do not hide each other.
            let y = top + (Double(mark.lane) + 0.5) * Timeline.laneHeight + Double(mark.tile % 5 - 2) * 2
            return PageView.Mark(
                transform: "translate(\(number(mark.x)) \(number(y)))", shape: Self.shape(mark.status),
                css: mark.status.rawValue, href: "#\(anchor)-t\(mark.tile)", title: mark.title,
                span: mark.span.map {
                    PageView.Span(x1: number($0.lowerBound), x2: number($0.upperBound), y: number(y))
                },
                ring: mark.nearEdge)
        }
        let offScale = timeline.offScale
        self.offScale =
            offScale == 0
            ? nil
            : offScale == 1
                ? "1 photo lies beyond the drawn range and sits at its edge."
                : "\(offScale) photos lie beyond the drawn range and sit at its edges."
    }

    /// An SVG path around the origin: each outcome has its own shape.
    static func shape(_ status: FileStatus) -> String {
        switch status {
        case .uploaded: "M-4.5 0a4.5 4.5 0 1 0 9 0a4.5 4.5 0 1 0-9 0z"
        case .duplicate: "M-4-4h8v8h-8z"
        case .outside: "M0-5.5L5 4.5H-5z"
        case .undated: "M-4 4L4 -4M-4 -4h8"
        case .failed: "M-4-4L4 4M4-4L-4 4"
        case .pending: "M-4.5 0a4.5 4.5 0 1 0 9 0a4.5 4.5 0 1 0-9 0z"
        case .skipped: "M0-5L5 0L0 5L-5 0z"
        }
    }
}

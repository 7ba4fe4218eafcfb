import Foundation
import IngestCore

/// Where each dated photo of an event sits on a horizontal axis of UTC time, one lane per outcome
/// or one per camera body: the geometry of the report's inline SVG, in the SVG's own units.
public struct Timeline: Sendable {
    /// What a lane holds: the photos of one outcome, or those one body took (a camera whose clock
    /// is off shows as a lane shifted from the others).
    public enum Lane: Sendable, Hashable {
        case outcome(FileStatus)
        case camera(CameraBody)

        /// The outcome's word, or the body's name.
        public var name: String {
            switch self {
            case .outcome(let status): status.rawValue
            case .camera(let body): body.description
            }
        }
    }

    /// How the lanes divide the photos.
    public enum Rows: Sendable, Equatable {
        case outcomes, cameras
    }

    public struct Mark: Sendable, Equatable {
        public var x: Double
        public var lane: Int
        public var status: FileStatus
        /// Drawn with a ring: near an edge, or inside only in the assumed zone.
        public var nearEdge: Bool
        /// The span of instants an assumed zone leaves open, drawn as a bar.
        public var span: ClosedRange<Double>?
        /// The photos it stands for: those of one lane within `binWidth` of each other.
        public var count: Int
        /// The tile it links to: its first photo's.
        public var tile: Int
        public var title: String
    }

    public struct Tick: Sendable, Equatable {
        public var x: Double
        public var label: String
    }

    public static let width = 1_000.0
    /// Room at the left for the lanes' names.
    public static let left = 160.0
    public static let laneHeight = 26.0
    /// Photos of one lane closer than this share one mark: drawn apart they would cover each other
    /// anyway, and 20,000 marks cost a browser more than a second to lay out.
    public static let binWidth = 3.0

    public var lanes: [Lane]
    public var marks: [Mark]
    /// Photos beyond the drawn range, drawn at its edges.
    public var offScale: Int
    public var ticks: [Tick]
    /// The window's edges, when it has them and they fall in the drawn range.
    public var windowStart: Double?
    public var windowEnd: Double?
    public var height: Double { Double(max(1, self.lanes.count)) * Self.laneHeight + 24 }
    /// The range drawn, in UTC.
    public var range: ClosedRange<Date>

    /// The timeline of `photos` (the tiles' order gives each mark its tile) against `window`, a
    /// lane per outcome or per camera body.
    public init(window: EventWindow, photos: [(tile: Int, photo: ReportPhoto)], rows: Rows = .outcomes) {
        let dated = photos.filter { $0.photo.capture != nil }
        // The spans an assumed zone leaves open count too, so that the page shows how far they reach.
        self.range = Self.range(
            window: window,
            instants: dated.flatMap { entry in
                entry.photo.possibleInstants.map { [$0.lowerBound, $0.upperBound] } ?? []
            })
        let lane = { (photo: ReportPhoto) -> Lane in
            rows == .outcomes ? .outcome(photo.status) : .camera(photo.camera ?? CameraBody())
        }
        self.lanes =
            rows == .outcomes
            ? FileStatus.allCases.filter { status in dated.contains { $0.photo.status == status } }.map(Lane.outcome)
            : Set(dated.map { lane($0.photo) }).sorted { $0.name < $1.name }
        let range = self.range
        let lanes = self.lanes
        let span = max(1, range.upperBound.timeIntervalSince(range.lowerBound))
        let x: (Date) -> Double = { date in
            let fraction = date.timeIntervalSince(range.lowerBound) / span
            return Self.left + min(1, max(0, fraction)) * (Self.width - Self.left - 10)
        }
        self.offScale = dated.filter { !range.contains($0.photo.capture!.instant) }.count
        var order: [BinKey] = []
        var bins: [BinKey: [Placed]] = [:]
        for (tile, photo) in dated {
            let position = x(photo.capture!.instant)
            let placed = Placed(
                tile: tile, photo: photo, x: position, lane: lanes.firstIndex(of: lane(photo)) ?? 0,
                span: photo.possibleInstants.flatMap {
                    $0.lowerBound == $0.upperBound ? nil : x($0.lowerBound)...x($0.upperBound)
                })
            let key = BinKey(
                lane: placed.lane, status: photo.status, bin: Int((position / Self.binWidth).rounded(.down)))
            if bins[key] == nil { order.append(key) }
            bins[key, default: []].append(placed)
        }
        self.marks = order.map { Self.mark(bins[$0]!) }
        self.windowStart = window.start.map(x)
        self.windowEnd = window.end.map(x)
        self.ticks = Self.ticks(range).map { Tick(x: x($0), label: Self.tickLabel($0, span: span)) }
    }

    private struct BinKey: Hashable {
        var lane: Int
        /// A body's lane holds photos of every outcome: each keeps its own marks.
        var status: FileStatus
        var bin: Int
    }

    private struct Placed {
        var tile: Int
        var photo: ReportPhoto
        var x: Double
        var lane: Int
        var span: ClosedRange<Double>?
    }

    /// One mark for the photos of a bin (at least one), placed and linked as its first.
    private static func mark(_ bin: [Placed]) -> Mark {
        let first = bin[0]
        let spans = bin.compactMap(\.span)
        let instants = bin.map { ($0.photo.capture!.instant, $0.photo.name) }
        let earliest = instants.min { $0.0 < $1.0 }!
        let latest = instants.max { $0.0 < $1.0 }!
        let status = first.photo.status.rawValue
        return Mark(
            x: first.x, lane: first.lane, status: first.photo.status,
            nearEdge: bin.contains { $0.photo.nearEdge != nil },
            span: spans.isEmpty
                ? nil : spans.map(\.lowerBound).min()!...spans.map(\.upperBound).max()!,
            count: bin.count, tile: first.tile,
            title: bin.count == 1
                ? "\(first.photo.name): \(status), \(RFC3339.format(earliest.0))"
                : "\(bin.count) photos, \(status), \(RFC3339.format(earliest.0)) (\(earliest.1))"
                    + " to \(RFC3339.format(latest.0)) (\(latest.1))")
    }

    /// The window, widened to show the photos close outside it (up to half its length, at least
    /// three hours, on each side); photos further out are drawn at the edge. Without a window,
    /// the photos' own span.
    static func range(window: EventWindow, instants: [Date]) -> ClosedRange<Date> {
        let earliest = instants.min()
        let latest = instants.max()
        guard let start = window.start ?? earliest, let end = window.end ?? latest, start <= end else {
            let now = earliest ?? Date(timeIntervalSince1970: 0)
            return now.addingTimeInterval(-3_600)...now.addingTimeInterval(3_600)
        }
        let margin = max(3 * 3_600, end.timeIntervalSince(start) / 2)
        let lower = max(start.addingTimeInterval(-margin), min(earliest ?? start, start))
        let upper = min(end.addingTimeInterval(margin), max(latest ?? end, end))
        return lower == upper ? lower.addingTimeInterval(-3_600)...upper.addingTimeInterval(3_600) : lower...upper
    }

    /// Five to ten round instants across the range.
    static func ticks(_ range: ClosedRange<Date>) -> [Date] {
        let span = range.upperBound.timeIntervalSince(range.lowerBound)
        let steps: [TimeInterval] = [
            60, 300, 900, 1_800, 3_600, 3 * 3_600, 6 * 3_600, 12 * 3_600, 86_400, 7 * 86_400, 30 * 86_400,
            365 * 86_400,
        ]
        let step = steps.first { span / $0 <= 8 } ?? span / 8
        var tick = (range.lowerBound.timeIntervalSince1970 / step).rounded(.up) * step
        var ticks: [Date] = []
        while tick <= range.upperBound.timeIntervalSince1970 {
            ticks.append(Date(timeIntervalSince1970: tick))
            tick += step
        }
        return ticks
    }

    static func tickLabel(_ date: Date, span: TimeInterval) -> String {
        let text = RFC3339.format(date)  // 2025-09-27T21:00:00Z
        let day = String(text.prefix(10))
        let time = String(text.dropFirst(11).prefix(5))
        return span > 3 * 86_400 ? day : (time == "00:00" ? day : time)
    }
}

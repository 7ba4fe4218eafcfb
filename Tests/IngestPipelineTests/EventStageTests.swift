import Foundation
import IngestCore
import IngestDating
import Testing

@testable import IngestPipeline

/// Stage 3: a capture time placed against every event's UTC window, both ends included.
@Suite struct EventStageTests {
    let context = StageContext(logger: .init(label: "test"), limits: Limits(jobs: 1))
    let events = [
        Event(
            id: "day", name: "Day",
            window: EventWindow(start: Self.at("2025-09-27T08:00:00Z"), end: Self.at("2025-09-27T20:00:00Z"))),
        Event(
            id: "evening", name: "Evening",
            window: EventWindow(start: Self.at("2025-09-27T18:00:00Z"), end: Self.at("2025-09-28T02:00:00Z"))),
        Event(id: "open", name: "Open"),
    ]

    static func at(_ text: String) -> Date { RFC3339.parse(text)! }

    func place(_ capture: CaptureTime, stage: EventStage = EventStage(nearEdgeMargin: 0, zoneIsGuessed: false))
        async throws
        -> [EventStage.Placement]
    {
        try await stage.process(.init(capture: capture, events: self.events), context: self.context)
    }

    @Test(
        "One placement per event, in order: inside every window that holds the instant, its distance outside the others"
    )
    func everyEvent() async throws {
        let placements = try await self.place(
            CaptureTime(instant: Self.at("2025-09-27T19:00:00Z"), source: .exifOffset))
        #expect(placements.map(\.isInside) == [true, true, true])
        let morning = try await self.place(CaptureTime(instant: Self.at("2025-09-27T07:00:00Z"), source: .exifOffset))
        #expect(morning.map(\.isInside) == [false, false, true])
        #expect(morning.map(\.distance) == [3_600, 11 * 3_600, 0])
    }

    @Test("Both ends of a window are inside it; a second past its end is not")
    func endsIncluded() async throws {
        let start = try await self.place(CaptureTime(instant: Self.at("2025-09-27T08:00:00Z"), source: .exifOffset))
        let end = try await self.place(CaptureTime(instant: Self.at("2025-09-27T20:00:00Z"), source: .exifOffset))
        let after = try await self.place(CaptureTime(instant: Self.at("2025-09-27T20:00:01Z"), source: .exifOffset))
        #expect(start[0].isInside && end[0].isInside)
        #expect(!after[0].isInside && after[0].distance == 1)
    }

    @Test("Dated by its modification time only: undated where a window is set, stored in the open event (the default)")
    func modificationTimeOnly() async throws {
        let capture = CaptureTime(instant: Self.at("2025-09-27T19:00:00Z"), source: .fileMTime)
        let placements = try await self.place(capture)
        #expect(placements.map { $0.weakTime?.status } == [.undated, .undated, nil])
        #expect(placements[2].isInside)
        // --undated mtime places it by that time, as any.
        let placed = try await self.place(
            capture, stage: EventStage(nearEdgeMargin: 0, zoneIsGuessed: false, undated: .mtime))
        #expect(placed.map(\.isInside) == [true, true, true])
    }

    @Test("A photo just outside a window, within the margin, is marked near its edge")
    func nearTheEdge() async throws {
        let stage = EventStage(nearEdgeMargin: 3_600, zoneIsGuessed: false)
        let placements = try await self.place(
            CaptureTime(instant: Self.at("2025-09-27T20:30:00Z"), source: .exifOffset), stage: stage)
        #expect(!placements[0].isInside && placements[0].distance == 1_800)
        #expect(placements[0].nearEdge != nil)
        #expect(placements[1].nearEdge == nil, "inside the evening: no second look needed")
    }
}

import Foundation
import IngestCatalog
import IngestCore
import IngestHashing
import IngestOutcome
import IngestTesting
import Testing

@testable import IngestPipeline

/// The whole pipeline with the catalog in memory and a destination that records: stages 1 to 7
/// over real photos, and nothing written but the photos themselves.
extension PipelineTests {
    func run(events: [Event], catalog: Catalog, destination: RecordingDestination) async throws -> RunSummary {
        let limits = Limits(jobs: 2)
        let context = StageContext(logger: .init(label: "test"), limits: limits)
        defer { context.shutdown() }
        let configuration = RunConfiguration(
            paths: [self.photos.path], events: events, limits: limits, timeZone: TimeZone(identifier: "UTC")!)
        let pipeline = Pipeline(
            configuration: configuration, destination: destination, catalog: catalog, context: context)
        return try await pipeline.run(observer: RecordingObserver(), stop: StopRequest())
    }

    @Test(
        "In memory: each photo sent once to each event it falls in, one held before is a duplicate, a re-run sends nothing"
    )
    func inMemory() async throws {
        let inside = ["EXIF:DateTimeOriginal": "2025:09:27 22:00:00", "EXIF:OffsetTimeOriginal": "+00:00"]
        let early = try self.photo(
            "early.jpg", ["EXIF:DateTimeOriginal": "2025:09:27 06:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        let late = try self.photo("late.jpg", inside)
        let held = try self.photo(
            "held.jpg", ["EXIF:DateTimeOriginal": "2025:09:27 21:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        let events = [
            Event(
                id: "day", name: "Day",
                window: EventWindow(
                    start: RFC3339.parse("2025-09-27T00:00:00Z"), end: RFC3339.parse("2025-09-28T00:00:00Z"))),
            Event(
                id: "night", name: "Night",
                window: EventWindow(
                    start: RFC3339.parse("2025-09-27T20:00:00Z"), end: RFC3339.parse("2025-09-28T06:00:00Z"))),
        ]
        let catalog = try Catalog.inMemory()
        let destination = RecordingDestination(held: ["night": [ContentHasher.hash(Array(try Data(contentsOf: held)))]])
        let first = try await self.run(events: events, catalog: catalog, destination: destination)
        let sent = Set(destination.stored.map { "\($0.event)/\($0.filename)" })
        #expect(sent == ["day/early.jpg", "day/late.jpg", "day/held.jpg", "night/late.jpg"])
        #expect(destination.stored.count == 4, "each once")
        #expect(destination.stored.allSatisfy { $0.hasThumbnails })
        #expect(first.events.map { $0.count(.uploaded) } == [3, 1])
        #expect(first.events[1].count(.duplicate) == 1)
        #expect(first.events[1].count(.outside) == 1)
        #expect(
            try await catalog.outcomes(destination: destination.identity, event: "night")
                == [early.path: .outside, late.path: .uploaded, held.path: .duplicate])

        let again = try await self.run(events: events, catalog: catalog, destination: destination)
        #expect(destination.stored.count == 4, "a re-run sends nothing")
        #expect(again.filesUnchanged == 3)
    }
}

import Foundation
import IngestCore
import IngestDating
import IngestDestinations
import IngestImaging
import IngestTesting
import Testing

@testable import IngestPipeline

/// Stage 6: the prepared photo handed to the destination for one event, its answer passed on.
@Suite struct StoreStageTests {
    let folder = TemporaryFolder("store-stage")
    let context = StageContext(logger: .init(label: "test"), limits: Limits(jobs: 1))
    let event = Event(id: "party", name: "Party")

    func prepared(_ name: String) async throws -> PreparedPhoto {
        let photo = try Fixtures.jpeg(in: self.folder, name: name)
        let loaded = try await StageFixtures.read(photo, context: self.context)
        return PreparedPhoto(
            file: loaded, capture: CaptureTime(instant: Date(timeIntervalSince1970: 0), source: .fileMTime),
            thumbnails: nil)
    }

    @Test("Stored once per event; the same bytes again are the destination's duplicate")
    func storesThenDuplicate() async throws {
        let destination = RecordingDestination()
        let stage = StoreStage(destination: destination)
        let photo = try await self.prepared("a.jpg")
        #expect(try await stage.process(.init(photo: photo, event: self.event), context: self.context) == .stored)
        #expect(try await stage.process(.init(photo: photo, event: self.event), context: self.context) == .duplicate)
        let other = Event(id: "other", name: "Other")
        #expect(try await stage.process(.init(photo: photo, event: other), context: self.context) == .stored)
        #expect(destination.stored.map(\.event) == ["party", "other"])
        #expect(destination.stored.allSatisfy { $0.filename == "a.jpg" && $0.hash == photo.file.hash })
    }

    @Test("A refusal is the stage's error, with the destination's words")
    func refusal() async throws {
        let stage = StoreStage(destination: RecordingDestination(failing: ["b.jpg"]))
        let photo = try await self.prepared("b.jpg")
        do {
            _ = try await stage.process(.init(photo: photo, event: self.event), context: self.context)
            Issue.record("a refused store returned")
        } catch {
            #expect(error.code == .storeFailed)
            #expect(error.message.contains("refused"))
        }
    }
}

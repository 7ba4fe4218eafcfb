import Foundation
import IngestCore
import IngestDating
import IngestImaging
import IngestTesting
import Testing

@testable import IngestPipeline

/// Stage 2 on real files: the capture time read from their bytes, made UTC, with its source.
@Suite struct CaptureTimeStageTests {
    let folder = TemporaryFolder("capture-stage")
    let context = StageContext(logger: .init(label: "test"), limits: Limits(jobs: 1))
    let stage = CaptureTimeStage(resolver: CaptureTimeResolver(assumedZone: TimeZone(identifier: "Europe/Paris")!))

    @Test("A photo's EXIF time with its offset is that instant, from EXIF")
    func exifWithOffset() async throws {
        let photo = try Fixtures.jpeg(
            in: self.folder, name: "a.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 22:00:00", "EXIF:OffsetTimeOriginal": "+02:00"])
        let output = try await self.stage.process(
            try await StageFixtures.read(photo, context: self.context), context: self.context)
        #expect(output.capture.instant == RFC3339.parse("2025-09-27T20:00:00Z"))
        #expect(output.capture.source == .exifOffset)
    }

    @Test("A photo's EXIF time without an offset is read in the assumed zone, and says so")
    func exifInTheAssumedZone() async throws {
        let photo = try Fixtures.jpeg(
            in: self.folder, name: "b.jpg", tags: ["EXIF:DateTimeOriginal": "2025:01:15 12:00:00"])
        let output = try await self.stage.process(
            try await StageFixtures.read(photo, context: self.context), context: self.context)
        // Paris in January: UTC+1.
        #expect(output.capture.instant == RFC3339.parse("2025-01-15T11:00:00Z"))
        #expect(output.capture.source == .exifAssumedZone)
    }

    @Test("A photo with no date in its bytes nor its name falls back to its modification time")
    func noDateAnywhere() async throws {
        let photo = try Fixtures.jpeg(in: self.folder, name: "plain.jpg")
        let modified = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: photo.path)
        let output = try await self.stage.process(
            try await StageFixtures.read(photo, context: self.context), context: self.context)
        #expect(output.capture.source == .fileMTime)
        #expect(output.capture.instant == modified)
    }

    @Test("A video's QuickTime creation time (UTC) is that instant")
    func videoCreationTime() async throws {
        let video = try Fixtures.video(in: self.folder, name: "clip.mp4", creationTime: "2024-05-01T10:00:00Z")
        let output = try await self.stage.process(
            try await StageFixtures.read(video, context: self.context), context: self.context)
        #expect(output.capture.instant == RFC3339.parse("2024-05-01T10:00:00Z"))
        #expect(output.capture.source != .fileMTime)
    }
}

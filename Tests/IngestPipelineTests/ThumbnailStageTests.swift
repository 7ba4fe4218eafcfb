import Foundation
import IngestCore
import IngestImaging
import IngestTesting
import Testing

@testable import IngestPipeline

/// Stage 5 on real files through libvips and FFmpeg: the 500 px and 200 px JPEGs.
@Suite struct ThumbnailStageTests {
    let folder = TemporaryFolder("thumbnail-stage")
    let context = StageContext(logger: .init(label: "test"), limits: Limits(jobs: 1))
    let stage = ThumbnailStage(thumbnailer: Thumbnailer())

    init() throws { try ImagingLibrary.bootstrap() }

    /// The JPEG's own size, as a decoder reads it.
    func size(_ thumbnail: Thumbnail) throws -> (Int, Int) {
        let file = self.folder.appending("thumbnail-\(UUID().uuidString).jpg")
        try Data(thumbnail.jpeg).write(to: file)
        let result = try runProgram("vipsheader", ["-f", "width", file.path])
        let height = try runProgram("vipsheader", ["-f", "height", file.path])
        return (
            Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0,
            Int(height.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        )
    }

    @Test("A 1200x800 photo gives JPEGs of 500x333 and 200x133, as their bytes say")
    func photo() async throws {
        let photo = try Fixtures.jpeg(in: self.folder, name: "wide.jpg", width: 1_200, height: 800)
        let thumbnails = try await self.stage.process(
            try await StageFixtures.read(photo, context: self.context), context: self.context)
        #expect(try self.size(thumbnails.large) == (500, 333))
        #expect(try self.size(thumbnails.small) == (200, 133))
        #expect((thumbnails.large.width, thumbnails.large.height) == (500, 333))
    }

    @Test("A video's thumbnails come from a decoded frame, its long edge 500 and 200")
    func video() async throws {
        let video = try Fixtures.video(in: self.folder, name: "clip.mp4", width: 640, height: 480, seconds: 2)
        let thumbnails = try await self.stage.process(
            try await StageFixtures.read(video, context: self.context), context: self.context)
        #expect(try self.size(thumbnails.large) == (500, 375))
        #expect(try self.size(thumbnails.small) == (200, 150))
    }

    @Test("A JPEG cut short in its scan fails with a reason, never thumbnails of half a picture")
    func cutShort() async throws {
        let photo = try Fixtures.jpeg(in: self.folder, name: "cut.jpg", width: 800, height: 600)
        let bytes = try Data(contentsOf: photo)
        try bytes.prefix(bytes.count / 3).write(to: photo)
        let loaded = try await StageFixtures.read(photo, context: self.context)
        await #expect(throws: IngestError.self) { try await self.stage.process(loaded, context: self.context) }
    }
}

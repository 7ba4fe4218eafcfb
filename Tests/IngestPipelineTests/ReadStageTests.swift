import AsyncAlgorithms
import Foundation
import IngestCore
import IngestDiscovery
import IngestTesting
import Testing

@testable import IngestPipeline

@Suite struct ReadStageTests {
    let folder = TemporaryFolder("read")
    let context = StageContext(logger: .init(label: "test"), limits: Limits(jobs: 1))

    func discovered(_ url: URL) throws -> DiscoveredFile {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        return DiscoveredFile(path: url.path, stamp: FileStamp(size: size, modifiedNanoseconds: 0, inode: 0))
    }

    @Test("A file whose name is not UTF-8 (Latin-1 from an old system), as the walk finds it, is opened and read")
    func namesThatAreNotUTF8() async throws {
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
        let path = PathBytes.string(Array(self.folder.url.path.utf8) + [0x2F] + name)
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        let descriptor = PathBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        try #require(descriptor >= 0)
        #expect(Glibc.write(descriptor, bytes, bytes.count) == bytes.count)
        close(descriptor)
        let channel = AsyncChannel<DiscoveryBatch>()
        async let walked = Discovery(roots: [self.folder.url.path], includeHidden: false).walk(
            into: channel, shouldStop: { false })
        var items: [DiscoveryItem] = []
        for await batch in channel { items += batch.items }
        _ = await walked
        guard case .file(let found) = items.first,
            case .photo(let loaded) = try await ReadStage().process(found, context: self.context)
        else {
            Issue.record("the file was not found and read: \(items)")
            return
        }
        #expect(found.path == path)
        #expect(loaded.bytes == bytes)
    }

    @Test("The hash of a file read once equals sha256sum's, across chunk boundaries")
    func hashEqualsSha256sum() async throws {
        let url = self.folder.appending("big.jpg")
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        bytes += (0..<(3 << 20) + 12_345).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        try Data(bytes).write(to: url)
        guard case .photo(let loaded) = try await ReadStage().process(try self.discovered(url), context: self.context)
        else {
            Issue.record("a JPEG was not read as a photo")
            return
        }
        #expect(loaded.kind == .jpeg)
        #expect(loaded.bytes == bytes)
        #expect(loaded.hash.hex == (try Fixtures.sha256sum(url)))
    }

    @Test func unsupportedFilesAreNotReadPastTheirHead() async throws {
        let url = self.folder.appending("notes.jpg")
        try Data("these are not photos, whatever the extension says".utf8).write(to: url)
        let result = try await ReadStage().process(try self.discovered(url), context: self.context)
        guard case .unsupported(_, let reason) = result else {
            Issue.record("text was taken for a photo")
            return
        }
        #expect(reason.contains("not a supported image format"))
    }

    @Test func aMissingFileIsAFailureWithTheReason() async throws {
        let file = DiscoveredFile(
            path: self.folder.appending("gone.jpg").path, stamp: FileStamp(size: 1, modifiedNanoseconds: 0, inode: 0))
        let error = await #expect(throws: IngestError.self) {
            try await ReadStage().process(file, context: self.context)
        }
        #expect(error?.code == .unreadable)
        #expect(error?.message.contains("No such file") == true)
    }

    @Test("A file swapped for a FIFO after the walk fails at once instead of hanging the run on open")
    func aFIFOIsNotOpenedForReading() async throws {
        let url = self.folder.appending("swapped.jpg")
        try #require(mkfifo(url.path, 0o644) == 0)
        let file = DiscoveredFile(path: url.path, stamp: FileStamp(size: 10, modifiedNanoseconds: 0, inode: 0))
        let error = await #expect(throws: IngestError.self) {
            try await ReadStage().process(file, context: self.context)
        }
        #expect(error?.code == .changedWhileReading)
    }

    @Test func filesOverTheMemoryLimitFailWithoutBeingRead() async throws {
        let url = self.folder.appending("huge.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 4_000)).write(to: url)
        var limits = Limits(jobs: 1)
        limits.maxFileBytes = 1_000
        let context = StageContext(logger: .init(label: "test"), limits: limits)
        let error = await #expect(throws: IngestError.self) {
            try await ReadStage().process(try self.discovered(url), context: context)
        }
        #expect(error?.code == .tooLarge)
    }

    @Test("A video streams: nothing held but its moov box, hashed whole all the same")
    func streamsAVideo() async throws {
        let url = try Fixtures.video(in: self.folder, name: "clip.mp4", seconds: 1)
        guard case .photo(let loaded) = try await ReadStage().process(try self.discovered(url), context: self.context)
        else {
            Issue.record("an MP4 was not read as a video")
            return
        }
        #expect(loaded.kind == .mp4)
        #expect(loaded.bytes.isEmpty)
        #expect(!loaded.movie.isEmpty)
        #expect(loaded.hash.hex == (try Fixtures.sha256sum(url)))
    }
}

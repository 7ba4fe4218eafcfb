import Foundation
import IngestCore
import IngestDiscovery
import IngestHashing
import IngestTesting
import Testing

@testable import IngestPipeline

@Suite struct VideoDigestTests {
    @Test("Fed in chunks of any size, a video gives its SHA-256 and its moov box", arguments: [1, 4096, 1 << 20])
    func chunks(size: Int) throws {
        let folder = TemporaryFolder("video-digest")
        let video = try Fixtures.video(in: folder, name: "clip.mp4", seconds: 1)
        let bytes = Array(try Data(contentsOf: video))
        var digest = VideoDigest(size: UInt64(bytes.count), started: ContinuousClock().now)
        for start in stride(from: 0, to: bytes.count, by: size) {
            bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { digest.take($0) }
        }
        let loaded = try digest.finish(
            DiscoveredFile(path: video.path, stamp: FileStamp(size: 0, modifiedNanoseconds: 0, inode: 0)), kind: .mp4)
        #expect(loaded.hash == ContentHasher.hash(bytes))
        #expect(!loaded.movie.isEmpty && loaded.bytes.isEmpty)
    }

    @Test("Bytes with no moov box are not a playable video")
    func noMovie() throws {
        let bytes = [UInt8](repeating: 0, count: 64)
        var digest = VideoDigest(size: UInt64(bytes.count), started: ContinuousClock().now)
        bytes.withUnsafeBytes { digest.take($0) }
        #expect {
            _ = try digest.finish(
                DiscoveredFile(path: "/x.mp4", stamp: FileStamp(size: 0, modifiedNanoseconds: 0, inode: 0)), kind: .mp4)
        } throws: { error in
            (error as? IngestError)?.message.hasPrefix("not a playable video") == true
        }
    }
}

import Foundation
import IngestCore
import IngestImaging
import IngestTesting
import Testing

/// Content in memory, read through ``ContentReader``; `failAt` makes reads past it throw.
final class MemoryContent: ContentReader {
    let bytes: [UInt8]
    let failAt: Int64?
    private(set) var reads = 0

    init(_ bytes: [UInt8], failAt: Int64? = nil) {
        self.bytes = bytes
        self.failAt = failAt
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(IngestError) -> Int {
        self.reads += 1
        if let failAt, offset + Int64(buffer.count) > failAt {
            throw IngestError(.decodeFailed, "the test's reader failed")
        }
        guard offset < Int64(self.bytes.count) else { return 0 }
        let count = min(buffer.count, self.bytes.count - Int(offset))
        self.bytes.withUnsafeBytes {
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[Int(offset)..<Int(offset) + count]))
        }
        return count
    }
}

extension ContentSource {
    static func memory(_ bytes: [UInt8], failAt: Int64? = nil) -> ContentSource {
        ContentSource(size: Int64(bytes.count)) { () throws(IngestError) -> any ContentReader in
            MemoryContent(bytes, failAt: failAt)
        }
    }
}

@Suite struct VideoFrameReaderTests {
    @Test(
        "A video read through a content reader, moov first or last, gives the frame its file gives",
        arguments: [false, true])
    func fromContent(faststart: Bool) throws {
        let folder = TemporaryFolder("video-content")
        let video = try Fixtures.video(in: folder, name: "clip.mp4", seconds: 3, faststart: faststart)
        let fromFile = try VideoFrameReader.frame(path: video.path, maxPixels: 1_000_000)
        let fromContent = try VideoFrameReader.frame(
            content: .memory(Array(try Data(contentsOf: video))), maxPixels: 1_000_000)
        #expect(fromContent.width == fromFile.width && fromContent.height == fromFile.height)
        #expect(fromContent.rgb == fromFile.rgb)
        #expect(fromContent.seconds == fromFile.seconds)
    }

    @Test("A reader that fails part-way fails the frame with the reader's own reason, not FFmpeg's")
    func failingContent() throws {
        let folder = TemporaryFolder("video-content-failing")
        let video = try Fixtures.video(in: folder, name: "clip.mp4", seconds: 3)
        let bytes = Array(try Data(contentsOf: video))
        #expect {
            _ = try VideoFrameReader.frame(
                content: .memory(bytes, failAt: Int64(bytes.count / 2)), maxPixels: 1_000_000)
        } throws: { error in
            (error as? IngestError)?.message == "the test's reader failed"
        }
        // Not a video at all: FFmpeg's reason.
        #expect(throws: IngestError.self) {
            _ = try VideoFrameReader.frame(content: .memory(Array(repeating: 7, count: 4096)), maxPixels: 1_000_000)
        }
    }

    @Test("Every real video gives a frame and thumbnails of 500 and 200 px on the long edge, the right way up")
    func everyCorpusVideoIsThumbnailed() throws {
        let videos = TestEnvironment.files(under: TestEnvironment.mediaCorpus.appendingPathComponent("video"))
        try #require(videos.count >= 11, "the shared media corpus is missing")
        let oracle = try Fixtures.exiftool(["-Rotation"], files: videos)
        let thumbnailer = Thumbnailer()
        for video in videos {
            let frame = try VideoFrameReader.frame(path: video.path, maxPixels: 100_000_000)
            #expect(frame.rotation == (oracle[video.path]?["Rotation"] as? Int ?? 0), "\(video.lastPathComponent)")
            let thumbnails = try thumbnailer.thumbnails(of: frame)
            let turned = frame.rotation % 180 != 0
            let (width, height) = turned ? (frame.height, frame.width) : (frame.width, frame.height)
            let longest = max(width, height)
            #expect(
                max(thumbnails.large.width, thumbnails.large.height) == min(500, longest), "\(video.lastPathComponent)")
            #expect(
                max(thumbnails.small.width, thumbnails.small.height) == min(200, longest), "\(video.lastPathComponent)")
            #expect(
                (thumbnails.large.height > thumbnails.large.width) == (height > width),
                "\(video.lastPathComponent): turned wrong")
        }
    }

    @Test("A portrait phone video (rotation 90 in its matrix) gets a portrait thumbnail, its top turned to the right")
    func aRotatedVideoIsTurnedUpright() throws {
        let folder = TemporaryFolder("video")
        let video = folder.appending("portrait.mp4")
        // 640x360 frames, blue with a red band along the top; then exiftool writes the matrix that
        // says "turn 90° clockwise", as a phone held upright does.
        try Fixtures.check(
            runProgram(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i",
                    "color=c=blue:s=640x360:d=2:r=10,drawbox=x=0:y=0:w=640:h=60:color=red:t=fill",
                    "-c:v", "mpeg4", video.path,
                ]))
        try Fixtures.check(runProgram("exiftool", ["-q", "-overwrite_original", "-Rotation=90", video.path]))
        let frame = try VideoFrameReader.frame(path: video.path, maxPixels: 100_000_000)
        #expect(frame.rotation == 90)
        let thumbnails = try Thumbnailer().thumbnails(of: frame)
        #expect(
            thumbnails.large.width == 281 && thumbnails.large.height == 500,
            "\(thumbnails.large.width)x\(thumbnails.large.height)")
        let jpeg = folder.appending("large.jpg")
        try Data(thumbnails.large.jpeg).write(to: jpeg)
        // The band that was the top is now the right edge: red there, blue on the left.
        let right = try runProgram("vips", ["getpoint", jpeg.path, "270", "250"]).stdout
        let left = try runProgram("vips", ["getpoint", jpeg.path, "10", "250"]).stdout
        let channels = { (text: String) in
            text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        #expect(channels(right).first ?? 0 > 180 && channels(right).last ?? 255 < 80, "right edge: \(right)")
        #expect(channels(left).first ?? 255 < 80 && channels(left).last ?? 0 > 180, "left edge: \(left)")
    }

    @Test("A file that is not a video fails with FFmpeg's reason, never a crash")
    func aBrokenVideoFails() throws {
        let folder = TemporaryFolder("video")
        let broken = folder.appending("broken.mp4")
        try Data([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [UInt8](repeating: 0x41, count: 4000)).write(to: broken)
        let error = #expect(throws: IngestError.self) {
            try VideoFrameReader.frame(path: broken.path, maxPixels: 100_000_000)
        }
        #expect(error?.code == .decodeFailed)
    }
}

import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// Videos through the whole pipeline: streamed, dated from their `moov` wherever it sits, thumbnailed
/// from a frame the right way up, stored or uploaded whole.
@Suite(.serialized) struct VideoRunTests {
    static let folder = TemporaryFolder("videos")
    /// Three videos made by ffmpeg and dated by it or exiftool, and a photo beside them.
    static let media: Result<URL, Error> = Result {
        let folder = Self.folder
        _ = try Fixtures.video(in: folder, name: "moov-at-end.mp4", creationTime: "2025-09-27T21:30:00Z")
        _ = try Fixtures.video(
            in: folder, name: "portrait.mov", creationTime: "2025-09-27T22:00:00Z", faststart: true,
            tags: ["Rotation": "90"])
        _ = try Fixtures.video(
            in: folder, name: "iphone.mov", creationTime: "2025-09-27T20:00:00Z",
            tags: ["Keys:CreationDate": "2025:09:27 23:15:00+02:00"])
        _ = try Fixtures.jpeg(
            in: folder, name: "photo.jpg",
            tags: ["EXIF:DateTimeOriginal": "2025:09:27 21:39:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        return folder.url
    }

    /// name → (capture source, instant, media type, thumbnail 500's width × height)
    static let expected: [String: (String, String, String, (Int, Int))] = [
        "moov-at-end.mp4": ("quicktime-utc", "2025-09-27T21:30:00Z", "video/mp4", (320, 240)),
        "portrait.mov": ("quicktime-utc", "2025-09-27T22:00:00Z", "video/quicktime", (240, 320)),
        "iphone.mov": ("quicktime-offset", "2025-09-27T21:15:00Z", "video/quicktime", (320, 240)),
    ]

    @Test(
        "Into the archive: each video dated as its container says, thumbnails upright and never upscaled, original whole"
    )
    func archiveRun() throws {
        let media = try Self.media.get()
        let cli = CommandLine("video-archive")
        let run = try cli.ingest([media], ["--timezone", "UTC"])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.count("uploaded") == 4)
        for (name, (source, instant, mediaType, size)) in Self.expected {
            let entry = try #require(run.entry(named: name), "\(name) has no outcome")
            #expect(entry.captureSource == source, "\(name): \(entry)")
            #expect(entry.captureTime == instant, "\(name): \(entry)")
            #expect(entry.mediaType == mediaType, "\(name): \(entry)")
            let hash = try Fixtures.sha256sum(media.appendingPathComponent(name))
            let original = cli.archive.appendingPathComponent(
                "originals/\(hash.prefix(2))/\(hash).\(name.split(separator: ".").last!)")
            #expect(try Fixtures.sha256sum(original) == hash, "\(name): the stored original is not the file")
            let large = try Fixtures.dimensions(
                of: cli.archive.appendingPathComponent("thumbnails/500/\(hash.prefix(2))/\(hash).jpg"))
            let small = try Fixtures.dimensions(
                of: cli.archive.appendingPathComponent("thumbnails/200/\(hash.prefix(2))/\(hash).jpg"))
            #expect(large.width == size.0 && large.height == size.1, "\(name): 500 px thumbnail is \(large)")
            #expect(max(small.width, small.height) == 200, "\(name): 200 px thumbnail is \(small)")
        }
        let again = try cli.ingest([media], ["--timezone", "UTC"])
        #expect(again.summary?.event?.unchanged == 4)
    }

    @Test("Canon, Nikon and Sony cameras' videos are reported with their body and serial number, as photos are")
    func cameraSerial() throws {
        let folder = TemporaryFolder("video-canon")
        _ = try Fixtures.canonVideo(named: "MVI_0001.MP4", in: folder)
        _ = try Fixtures.makerVideo(
            named: "DSC_0001.MOV", in: folder,
            inMovie: ExifBuilder.isoBox(
                "udta", MakerMovieBoxes.nikon(make: "NIKON", model: "NIKON Z 6_2", serial: "6012345")))
        // Sony's XML sits after `moov`, in a box of its own: the run reads it as the bytes pass.
        _ = try Fixtures.makerVideo(
            named: "C0001.MP4", in: folder, inMovie: [],
            afterMovie: MakerMovieBoxes.sony(make: "Sony", model: "ILCE-7M4", serial: "3012345"))
        let cli = CommandLine("video-canon")
        let run = try cli.ingest([folder.url], ["--timezone", "UTC", "--undated", "mtime"])
        #expect(run.status == 0, "\(run.result.stderr)")
        for (name, make, model, serial) in [
            ("MVI_0001.MP4", "Canon", "Canon EOS M50", "613040000565"),
            ("DSC_0001.MOV", "NIKON", "NIKON Z 6_2", "6012345"), ("C0001.MP4", "Sony", "ILCE-7M4", "3012345"),
        ] {
            let entry = try #require(run.entry(named: name))
            #expect(entry.mediaType?.hasPrefix("video/") == true)
            #expect(entry.camera?.make == make && entry.camera?.model == model, "\(entry)")
            #expect(entry.camera?.serial == serial, "\(entry)")
        }
    }

    @Test("To the reference server: videos uploaded with their media type and thumbnails, byte for byte")
    func serverRun() throws {
        let media = try Self.media.get()
        let server = try ReferenceServer()
        _ = try server.addEvent(name: "Party", start: "2025-09-27T00:00:00Z", end: "2025-09-28T00:00:00Z")
        let cli = CommandLine("video-server")
        let run = try cli.ingest(
            [media], ["--server", server.url, "--timezone", "UTC"],
            environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.count("uploaded") == 4)
        for (name, (_, _, mediaType, _)) in Self.expected {
            let hash = try Fixtures.sha256sum(media.appendingPathComponent(name))
            #expect(try server.sql("SELECT media_type FROM photo WHERE sha256 = '\(hash)'") == mediaType, "\(name)")
            #expect(try server.sql("SELECT thumbnail_500 != '' FROM photo WHERE sha256 = '\(hash)'") == "1", "\(name)")
            let stored = try server.sql("SELECT original FROM photo WHERE sha256 = '\(hash)'")
            #expect(
                try Fixtures.sha256sum(server.data.appending(stored)) == hash, "\(name): the server holds other bytes")
        }
    }
}

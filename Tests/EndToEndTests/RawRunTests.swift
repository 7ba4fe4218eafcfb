import Foundation
import IngestApp
import IngestCore
import IngestTesting
import Testing

/// Raw photos, JPEG XL and a big TIFF through the whole pipeline: dated from their EXIF wherever
/// it lies, thumbnailed from their largest preview, stored or uploaded whole with their own type.
@Suite(.serialized) struct RawRunTests {
    static let folder = TemporaryFolder("raw-run")
    static let media: Result<URL, Error> = Result {
        let folder = Self.folder
        _ = try Fixtures.raw(
            "Nikon.nef", in: folder, previewTag: "JpgFromRaw", width: 1200, height: 800,
            tags: ["IFD0:DateTimeOriginal": "2025:09:27 21:10:00", "ExifIFD:OffsetTimeOriginal": "+02:00"])
        // A preview smaller than 500 px: stored, and the report says why its thumbnails are small.
        _ = try Fixtures.raw("DNG.dng", in: folder, previewTag: "JpgFromRaw", width: 400, height: 300)
        // No sample of these three is at hand: built as their cameras lay them out (RawPhotoTests
        // checks them against exiftool), each with its preview where that camera keeps it.
        for (format, name, make) in [
            (RawFileBuilder.Format.orf, "P9270001.ORF", "OLYMPUS IMAGING CORP."),
            (.pef, "IMGP0001.PEF", "PENTAX Corporation"), (.arw, "DSC00001.ARW", "SONY"),
        ] {
            _ = try Fixtures.builtRaw(
                format, in: folder, name: name, make: make, model: "Model", dateTimeOriginal: "2025:09:27 21:30:00",
                width: 900, height: 600)
        }
        let jpeg = try Fixtures.jpeg(in: folder, name: "source.jpg", width: 900, height: 600)
        let jxl = folder.appending("photo.jxl")
        try Fixtures.check(runProgram("vips", ["copy", jpeg.path, jxl.path]))
        let tiff = folder.appending("scan.tif")
        try Fixtures.check(runProgram("vips", ["copy", jpeg.path, tiff.path]))
        try FileManager.default.removeItem(at: jpeg)
        try Fixtures.check(
            runProgram(
                "exiftool", ["-m", "-q", "-overwrite_original", "-DateTimeOriginal=2025:09:27 22:00:00", jxl.path]))
        try Fixtures.write(
            [
                "EXIF:DateTimeOriginal": "2025:09:27 23:00:00",
                "IFD0:ImageDescription": String(repeating: "x", count: 70_000),
            ],
            to: tiff)
        return folder.url
    }

    /// name → (capture time, media type, 500 px thumbnail's width × height)
    static let expected: [String: (String, String, (Int, Int))] = [
        "Nikon.nef": ("2025-09-27T19:10:00Z", "image/x-nikon-nef", (500, 333)),
        "DNG.dng": ("2005-08-03T18:59:18Z", "image/x-adobe-dng", (400, 300)),
        "photo.jxl": ("2025-09-27T22:00:00Z", "image/jxl", (500, 333)),
        "scan.tif": ("2025-09-27T23:00:00Z", "image/tiff", (500, 333)),
        "P9270001.ORF": ("2025-09-27T21:30:00Z", "image/x-olympus-orf", (500, 333)),
        "IMGP0001.PEF": ("2025-09-27T21:30:00Z", "image/x-pentax-pef", (500, 333)),
        "DSC00001.ARW": ("2025-09-27T21:30:00Z", "image/x-sony-arw", (500, 333)),
    ]

    @Test("Into the archive: each stored whole with its own type, dated from its EXIF, with both thumbnails")
    func archiveRun() throws {
        let media = try Self.media.get()
        let cli = CommandLine("raw-archive")
        let run = try cli.ingest([media], ["--timezone", "UTC"])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.count("uploaded") == Self.expected.count)
        for (name, (instant, mediaType, size)) in Self.expected {
            let entry = try #require(run.entry(named: name), "\(name) has no outcome")
            #expect(entry.captureTime == instant, "\(name): \(entry)")
            #expect(entry.mediaType == mediaType, "\(name): \(entry)")
            let hash = try Fixtures.sha256sum(media.appendingPathComponent(name))
            let original = cli.archive.appendingPathComponent(
                "originals/\(hash.prefix(2))/\(hash).\(name.split(separator: ".").last!.lowercased())")
            #expect(try Fixtures.sha256sum(original) == hash, "\(name): the stored original is not the file")
            let large = try Fixtures.dimensions(
                of: cli.archive.appendingPathComponent("thumbnails/500/\(hash.prefix(2))/\(hash).jpg"))
            let small = try Fixtures.dimensions(
                of: cli.archive.appendingPathComponent("thumbnails/200/\(hash.prefix(2))/\(hash).jpg"))
            #expect(large.width == size.0 && large.height == size.1, "\(name): 500 px thumbnail is \(large)")
            #expect(max(small.width, small.height) == 200, "\(name): 200 px thumbnail is \(small)")
        }
        let small = try #require(run.entry(named: "DNG.dng"))
        #expect(small.reason?.contains("largest embedded preview is 400×300") == true, "\(small)")
        #expect(run.entry(named: "Nikon.nef")?.reason == nil)
    }

    @Test("To the reference server: uploaded with their media types, byte for byte")
    func serverRun() throws {
        let media = try Self.media.get()
        let server = try ReferenceServer()
        _ = try server.addEvent(name: "Party", start: "2000-01-01T00:00:00Z", end: "2030-01-01T00:00:00Z")
        let cli = CommandLine("raw-server")
        let run = try cli.ingest(
            [media], ["--server", server.url, "--timezone", "UTC"],
            environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.count("uploaded") == Self.expected.count)
        for (name, (_, mediaType, _)) in Self.expected {
            let hash = try Fixtures.sha256sum(media.appendingPathComponent(name))
            #expect(try server.sql("SELECT media_type FROM photo WHERE sha256 = '\(hash)'") == mediaType, "\(name)")
            let stored = try server.sql("SELECT original FROM photo WHERE sha256 = '\(hash)'")
            #expect(
                try Fixtures.sha256sum(server.data.appending(stored)) == hash, "\(name): the server holds other bytes")
        }
    }
}

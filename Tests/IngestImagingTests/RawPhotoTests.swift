import Foundation
import IngestContainers
import IngestCore
import IngestImaging
import IngestTesting
import Testing

/// Raw photos, big TIFFs and JPEG XL: their kind, capture time and thumbnails, against exiftool.
@Suite struct RawPhotoTests {
    static var samples: [URL] {
        let media = TestEnvironment.mediaCorpus
        return TestEnvironment.files(under: media.appendingPathComponent("raw"))
            + TestEnvironment.files(under: media.appendingPathComponent("exiftool-samples"))
    }

    /// What each sample is, by its content (the `Issue 247` NEFs are JPEGs with a raw name).
    static let expectedKinds: [String: MediaKind?] = [
        "Issue 247-1.nef": .jpeg, "Issue 247-2.nef": .jpeg, "Issue 247-3.nef": .jpeg, "Issue 247-4.nef": .jpeg,
        "Issue 419.rw2": .rw2, "CanonRaw.cr2": .cr2, "CanonRaw.cr3": .cr3, "CanonRaw.crw": nil, "DNG.dng": .dng,
        "FujiFilm.raf": .raf, "JXL.jxl": .jxl, "JXL2.jxl": .jxl, "Nikon.nef": .nef, "Panasonic.rw2": .rw2,
        "PhaseOne.iiq": .tiff, "QuickTime.heic": .heic, "Sigma.x3f": nil,
    ]

    static func kind(of bytes: [UInt8]) -> MediaKind? {
        guard case .supported(let kind) = MediaSniffer.sniff(bytes.prefix(MediaSniffer.headerLength)) else {
            return nil
        }
        return bytes.withUnsafeBytes { MediaSniffer.refine(kind, $0) }
    }

    @Test("Every raw and exiftool sample is dated as exiftool dates it, or refused by name")
    func samplesAgreeWithExiftool() throws {
        let files = Self.samples.filter { !["mov", "mts", "mkv"].contains($0.pathExtension) }
        try #require(files.count >= 16, "the shared media corpus is missing at \(TestEnvironment.mediaCorpus.path)")
        let oracle = try Fixtures.exiftool(["-a", "-G1", "-EXIF:all"], files: files)
        var dated = 0
        for file in files {
            let name = file.lastPathComponent
            let bytes = Array(try Data(contentsOf: file))
            let kind = Self.kind(of: bytes)
            #expect(Self.expectedKinds.keys.contains(name), "\(name): a sample this test does not know")
            #expect(
                kind == Self.expectedKinds[name] ?? nil, "\(name): taken as \(kind.map(\.rawValue) ?? "unsupported")")
            guard let kind else {
                if case .unsupported(let reason) = MediaSniffer.sniff(bytes.prefix(MediaSniffer.headerLength)) {
                    #expect(!reason.hasPrefix("not a supported"), "\(name): refused without naming what it is")
                }
                continue
            }
            let fields = bytes.withUnsafeBytes { MetadataReader.timeFields(in: $0, kind: kind) }
            let entry = oracle[file.path] ?? [:]
            let theirs = (entry["ExifIFD:DateTimeOriginal"] ?? entry["IFD0:DateTimeOriginal"]).map { "\($0)" }
            #expect(fields?.dateTimeOriginal == theirs, "\(name): DateTimeOriginal")
            let theirOffset = (entry["ExifIFD:OffsetTimeOriginal"]).map { "\($0)" }
            #expect(fields?.offsetTimeOriginal == theirOffset, "\(name): OffsetTimeOriginal")
            if theirs != nil { dated += 1 }
        }
        // DNG, CR2, CR3, NEF (IFD0's date), RAF, RW2, IIQ and the four JPEGs named .nef.
        #expect(dated >= 11)
    }

    @Test(
        "A raw file's full-size preview makes a true 500 px thumbnail, turned by the raw file's orientation",
        arguments: [
            ("Nikon.nef", "JpgFromRaw", MediaKind.nef), ("DNG.dng", "JpgFromRaw", .dng),
            ("CanonRaw.cr2", "PreviewImage", .cr2),
        ])
    func fullSizePreview(sample: String, tag: String, kind: MediaKind) throws {
        let folder = TemporaryFolder("raw-preview")
        let thumbnailer = Thumbnailer()
        let upright = try Fixtures.raw(sample, in: folder, previewTag: tag, width: 1200, height: 800)
        let turnedFolder = TemporaryFolder("raw-turned")
        let turnedURL = try Fixtures.raw(
            sample, in: turnedFolder, previewTag: tag, width: 1200, height: 800,
            tags: ["IFD0:Orientation#": "6"])
        let bytes = Array(try Data(contentsOf: upright))
        #expect(Self.kind(of: bytes) == kind)
        let preview = try #require(bytes.withUnsafeBytes { EmbeddedPreview.largest(in: $0, kind: kind) })
        #expect(preview.frame.width == 1200 && preview.frame.height == 800)
        let thumbnails = try bytes.withUnsafeBytes { try thumbnailer.thumbnails(of: $0, kind: kind) }
        #expect(thumbnails.large.width == 500 && thumbnails.large.height == 333)
        #expect(thumbnails.small.width == 200 && thumbnails.small.height == 133)

        // Orientation 6 (turn 90° clockwise) in IFD0: the preview does not carry it, the raw does.
        let turned = Array(try Data(contentsOf: turnedURL))
        let portrait = try turned.withUnsafeBytes { try thumbnailer.thumbnails(of: $0, kind: kind) }
        #expect(portrait.large.width == 333 && portrait.large.height == 500)
    }

    /// What exiftool says of a built raw file: its type, its date, and the preview `tag`'s bytes.
    static func exiftoolReading(_ url: URL, tag: String) throws -> (type: String?, date: String?, preview: [UInt8]?) {
        let entry = try Fixtures.exiftool(["-b", "-FileType", "-DateTimeOriginal", "-\(tag)"], files: [url])[url.path]
        let encoded = (entry?[tag] as? String).flatMap { $0.hasPrefix("base64:") ? String($0.dropFirst(7)) : nil }
        return (
            entry?["FileType"] as? String, entry?["DateTimeOriginal"] as? String,
            encoded.flatMap { Data(base64Encoded: $0) }.map { Array($0) }
        )
    }

    @Test(
        "ORF, PEF and ARW laid out as their cameras do, as exiftool reads them: dated, thumbnailed from the largest preview (ORF's and PEF's in the maker note)",
        arguments: [
            (RawFileBuilder.Format.orf, "P1010001.ORF", "OLYMPUS IMAGING CORP.", "PreviewImage", MediaKind.orf, false),
            (.pef, "IMGP0001.PEF", "PENTAX Corporation", "PreviewImage", .pef, false),
            (.pef, "IMGP0002.PEF", "PENTAX Corporation", "JpgFromRaw", .pef, true),
            (.arw, "DSC00001.ARW", "SONY", "PreviewImage", .arw, false),
        ])
    func builtRawFormats(
        format: RawFileBuilder.Format, name: String, make: String, tag: String, kind: MediaKind, fullSize: Bool
    ) throws {
        let folder = TemporaryFolder("built-raw")
        let url = try Fixtures.builtRaw(
            format, in: folder, name: name, make: make, model: "Model", dateTimeOriginal: "2024:05:06 07:08:09",
            width: 1024, height: 768, fullSize: fullSize ? (1200, 800) : nil)
        let bytes = Array(try Data(contentsOf: url))
        #expect(Self.kind(of: bytes) == kind, "\(name): by its content")
        let theirs = try Self.exiftoolReading(url, tag: tag)
        #expect(theirs.type == kind.rawValue.uppercased(), "\(name): exiftool takes it for \(theirs.type ?? "nothing")")
        let fields = bytes.withUnsafeBytes { MetadataReader.timeFields(in: $0, kind: kind) }
        #expect(fields?.dateTimeOriginal == "2024:05:06 07:08:09" && theirs.date == fields?.dateTimeOriginal)
        // The preview chosen is the one exiftool extracts as `tag`: the largest there is.
        let preview = try #require(bytes.withUnsafeBytes { EmbeddedPreview.largest(in: $0, kind: kind) })
        #expect(Array(bytes[preview.range]) == theirs.preview, "\(name): not exiftool's \(tag)")
        #expect(preview.frame.width == (fullSize ? 1200 : 1024))
        let thumbnails = try bytes.withUnsafeBytes { try Thumbnailer().thumbnails(of: $0, kind: kind) }
        #expect(thumbnails.large.width == 500 && thumbnails.large.height == (fullSize ? 333 : 375))
        #expect(thumbnails.note == nil)
    }

    @Test("An ORF turned by its IFD0 orientation: the maker note's preview is thumbnailed upright")
    func builtRawOrientation() throws {
        let folder = TemporaryFolder("built-raw-turned")
        let url = try Fixtures.builtRaw(
            .orf, in: folder, name: "P1010002.ORF", make: "OLYMPUS CORPORATION", model: "E-M10",
            dateTimeOriginal: "2024:05:06 07:08:09", width: 1024, height: 768, orientation: 6)
        let bytes = Array(try Data(contentsOf: url))
        let thumbnails = try bytes.withUnsafeBytes { try Thumbnailer().thumbnails(of: $0, kind: .orf) }
        #expect(thumbnails.large.width == 375 && thumbnails.large.height == 500)
        let theirs = try Fixtures.exiftool(["-Orientation"], files: [url])[url.path]
        #expect(theirs?["Orientation"] as? Int == 6)
    }

    @Test("A preview's own orientation tag is the raw file's to override: both thumbnails come out alike")
    func previewOrientationIsOverridden() throws {
        let folder = TemporaryFolder("raw-preview-orientation")
        // The preview says "turn me" (6); the raw file says upright (1).
        let url = try Fixtures.raw(
            "Nikon.nef", in: folder, previewTag: "JpgFromRaw", width: 1200, height: 800,
            tags: ["IFD0:Orientation#": "1"], previewTags: ["IFD0:Orientation#": "6"])
        let bytes = Array(try Data(contentsOf: url))
        let thumbnails = try bytes.withUnsafeBytes { try Thumbnailer().thumbnails(of: $0, kind: .nef) }
        #expect(thumbnails.large.width == 500 && thumbnails.large.height == 333)
        #expect(thumbnails.small.width == 200 && thumbnails.small.height == 133)
    }

    @Test("A raw file with no preview libjpeg can show fails with that reason, not a crash")
    func noUsablePreview() throws {
        // exiftool's NEF sample keeps only 26- and 29-byte stand-ins for its previews, and a 160 px
        // uncompressed IFD0 image.
        let url = TestEnvironment.mediaCorpus.appendingPathComponent("exiftool-samples/Nikon.nef")
        let bytes = Array(try Data(contentsOf: url))
        #expect(bytes.withUnsafeBytes { EmbeddedPreview.largest(in: $0, kind: .nef) } == nil)
        #expect {
            try bytes.withUnsafeBytes { try Thumbnailer().thumbnails(of: $0, kind: .nef) }
        } throws: { error in
            (error as? IngestError)?.code == .noPreview && "\(error)".contains("no JPEG preview")
        }
    }

    @Test("A TIFF whose EXIF lies past the first 64 KB keeps its date")
    func bigTIFFKeepsItsDate() throws {
        let folder = TemporaryFolder("big-tiff")
        let url = folder.appending("big.tif")
        try Fixtures.check(runProgram("vips", ["gaussnoise", url.path, "400", "300"]))
        // A long description in IFD0 (as scanners and editors write) puts exiftool's EXIF IFD after it.
        try Fixtures.write(
            [
                "EXIF:DateTimeOriginal": "2024:07:14 09:30:05", "EXIF:OffsetTimeOriginal": "+02:00",
                "IFD0:ImageDescription": String(repeating: "x", count: 70_000),
            ], to: url)
        let bytes = Array(try Data(contentsOf: url))
        let tiff = try #require(bytes.withUnsafeBytes { TIFFStructure($0) })
        let exif = try #require(tiff.entry(0x9003, in: [.exif]))
        #expect(exif.valueOffset > 65_536, "the test's TIFF must keep its EXIF past 64 KB")
        let fields = bytes.withUnsafeBytes { MetadataReader.timeFields(in: $0, kind: .tiff) }
        #expect(fields?.dateTimeOriginal == "2024:07:14 09:30:05")
        #expect(fields?.offsetTimeOriginal == "+02:00")
    }

    @Test("A JPEG XL in its container: its EXIF date read from the Exif box, both thumbnails made by libvips")
    func jpegXL() throws {
        let folder = TemporaryFolder("jxl")
        let jpeg = try Fixtures.jpeg(in: folder, width: 900, height: 600)
        let url = folder.appending("photo.jxl")
        try Fixtures.check(runProgram("vips", ["copy", jpeg.path, url.path]))
        // exiftool wraps the bare codestream libvips writes in the container to add EXIF (-m: it warns so).
        try Fixtures.check(
            runProgram(
                "exiftool",
                [
                    "-m", "-q", "-overwrite_original", "-DateTimeOriginal=2024:01:02 03:04:05",
                    "-OffsetTimeOriginal=+01:00", url.path,
                ]))
        let bytes = Array(try Data(contentsOf: url))
        #expect(Self.kind(of: bytes) == .jxl)
        let fields = bytes.withUnsafeBytes { MetadataReader.timeFields(in: $0, kind: .jxl) }
        #expect(fields?.dateTimeOriginal == "2024:01:02 03:04:05")
        #expect(fields?.offsetTimeOriginal == "+01:00")
        let thumbnails = try bytes.withUnsafeBytes { try Thumbnailer().thumbnails(of: $0, kind: .jxl) }
        #expect(thumbnails.large.width == 500 && thumbnails.large.height == 333)
        #expect(thumbnails.small.width == 200 && thumbnails.small.height == 133)
    }

    static func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func be16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    @Test("A RAF's embedded JPEG gives its date and its thumbnails")
    func fujifilmPreview() throws {
        let folder = TemporaryFolder("raf")
        let jpeg = Array(
            try Data(
                contentsOf: try Fixtures.jpeg(
                    in: folder, width: 1200, height: 800, tags: ["EXIF:DateTimeOriginal": "2023:05:06 07:08:09"])))
        // exiftool's sample with its JPEG pointer (big-endian offset and length at 84) moved to a
        // full-size JPEG appended to the file.
        var raf = Array(
            try Data(contentsOf: TestEnvironment.mediaCorpus.appendingPathComponent("exiftool-samples/FujiFilm.raf")))
        raf.replaceSubrange(84..<92, with: Self.be32(raf.count) + Self.be32(jpeg.count))
        raf += jpeg
        #expect(Self.kind(of: raf) == .raf)
        #expect(
            raf.withUnsafeBytes { MetadataReader.timeFields(in: $0, kind: .raf) }?.dateTimeOriginal
                == "2023:05:06 07:08:09")
        let thumbnails = try raf.withUnsafeBytes { try Thumbnailer().thumbnails(of: $0, kind: .raf) }
        #expect(thumbnails.large.width == 500 && thumbnails.large.height == 333)
    }

    @Test("A CR3's PRVW preview gives its thumbnails; its date comes from CMT2")
    func canonCR3Preview() throws {
        let folder = TemporaryFolder("cr3")
        let jpeg = Array(try Data(contentsOf: try Fixtures.jpeg(in: folder, width: 1620, height: 1080)))
        var cr3 = Array(
            try Data(contentsOf: TestEnvironment.mediaCorpus.appendingPathComponent("exiftool-samples/CanonRaw.cr3")))
        // The sample's preview box keeps a 26-byte stand-in: put a real JPEG in a PRVW of its own.
        let box = try #require(
            cr3.withUnsafeBytes { raw in
                ISOBox.children(in: ByteReader(raw), range: 0..<raw.count).first {
                    $0.type == "uuid" && raw[$0.payload.lowerBound] == 0xEA
                }
            })
        let header = Array(cr3[box.payload.lowerBound..<box.payload.lowerBound + 24])  // UUID and 8 bytes
        let prvwBody =
            Self.be32(0) + Self.be16(1) + Self.be16(1620) + Self.be16(1080) + Self.be16(1) + Self.be32(jpeg.count)
            + jpeg
        let prvw = Self.be32(8 + prvwBody.count) + Array("PRVW".utf8) + prvwBody
        let uuid = Self.be32(8 + header.count + prvw.count) + Array("uuid".utf8) + header + prvw
        cr3.replaceSubrange(box.offset..<box.payload.upperBound, with: uuid)
        #expect(Self.kind(of: cr3) == .cr3)
        let fields = cr3.withUnsafeBytes { MetadataReader.timeFields(in: $0, kind: .cr3) }
        #expect(fields?.dateTimeOriginal == "2018:02:21 12:08:56" && fields?.offsetTimeOriginal == "+00:00")
        let preview = try #require(cr3.withUnsafeBytes { EmbeddedPreview.largest(in: $0, kind: .cr3) })
        #expect(preview.frame.width == 1620 && preview.orientation == 1)
        let thumbnails = try cr3.withUnsafeBytes { try Thumbnailer().thumbnails(of: $0, kind: .cr3) }
        #expect(thumbnails.large.width == 500 && thumbnails.large.height == 333)
    }
}

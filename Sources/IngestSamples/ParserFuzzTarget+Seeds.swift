import Foundation
import IngestContainers
import IngestCore
import IngestDating

/// The inputs the fuzz target starts from: built byte by byte here, and taken from the real
/// corpus where it is present.
extension ParserFuzzTarget {
    /// The inputs built here, byte by byte: EXIF with every time tag and GPS, in each container and
    /// both byte orders; ORF, PEF and ARW files with their previews where those cameras keep them
    /// (maker notes included); motion photos (a HEIF's `mpvd` box, Samsung's JPEG trailer).
    public static func builtSeeds() -> [[UInt8]] {
        var builder = ExifBuilder()
        builder.ifd0 = [(0x010F, .ascii("Maker")), (0x0132, .ascii("2024:02:29 23:59:59"))]
        builder.exif = [
            (0x9003, .ascii("2025:09:27 21:39:00")), (0x9011, .ascii("-07:00")), (0x9291, .ascii("25")),
            (0x9004, .ascii("2025:09:27 21:39:00")), (0x9012, .ascii("+05:45")),
        ]
        builder.gps = [(0x001D, .ascii("2025:09:28")), (0x0007, .rationals([(4, 1), (39, 1), (0, 1)]))]
        var seeds: [[UInt8]] = []
        for bigEndian in [false, true] {
            builder.bigEndian = bigEndian
            seeds += [
                builder.tiff(), builder.jpeg(), builder.png(), builder.webp(), builder.webp(prefixed: true),
                builder.heif(prefixed: false), builder.heif(prefixed: true),
            ]
        }
        // A JPEG's frame header and nothing else: enough for the preview finder to judge it.
        let preview: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 2, 0, 3, 0, 1, 1, 0x11, 0, 0xFF, 0xD9]
        for (format, make) in [(RawFileBuilder.Format.orf, "OLYMPUS CORPORATION"), (.pef, "PENTAX"), (.arw, "SONY")] {
            var raw = RawFileBuilder(
                format: format, make: make, model: "Model", dateTimeOriginal: "2025:09:27 21:39:00", preview: preview)
            raw.fullSize = format == .pef ? preview : nil
            seeds.append(raw.bytes())
        }
        let clip = ExifBuilder.be32(16) + Array("ftypmp42".utf8) + [0, 0, 0, 0]
        seeds.append(builder.heif(prefixed: false) + Fixtures.clipBox(clip: clip))
        seeds.append(builder.jpeg() + Fixtures.samsungTrailer(clip: clip))
        seeds.append(Array(Self.sidecarSeed.utf8))
        seeds.append(Array(Self.takeoutSeed.utf8))
        seeds.append(
            Array(
                ("imgName,fileChecksum,favorite,hidden,deleted,originalCreationDate,viewCount,importDate\n"
                    + "IMG_0001.HEIC,AQ,no,no,no,Saturday June 4,2022 12:11 PM GMT,3,\n"
                    + "\"A, b.JPG\",AQ,no,no,no,\"Monday January 1,2024 9:30 AM GMT\",0,\n").utf8))
        seeds.append(
            Array(
                "IMG_1.jpg\nIMG_1.jpg.json\nIMG_1-edited.jpg\nIMG_2(1).jpg\nIMG_2.jpg(1).json\nB.MP4\nB.HEIC.json".utf8)
        )
        // The makers' video boxes: a `moov` whose `udta` holds Nikon's, GoPro's, Panasonic's (this
        // EXIF at 0x4068), Pentax's, a Ricoh GR III's and a GR's, then Sony's XML beside it; and
        // the XML alone.
        let device =
            MakerMovieBoxes.goProRecord("MINF", type: UInt8(ascii: "c"), size: 1, count: 9, Array("HERO12 Bl".utf8))
            + MakerMovieBoxes.goProRecord(
                "CASN", type: UInt8(ascii: "c"), size: 1, count: 15, Array("C3441325000000\0".utf8))
        let goPro = MakerMovieBoxes.goProRecord("DEVC", type: 0, size: 1, count: device.count, device)
        let udta = ExifBuilder.isoBox(
            "udta",
            MakerMovieBoxes.nikon(make: "NIKON", model: "NIKON Z 8", serial: "3000001")
                + MakerMovieBoxes.goPro(payload: goPro)
                + MakerMovieBoxes.panasonic(model: "DC-GH6", exif: Array(builder.jpeg().prefix(2_000)))
                + MakerMovieBoxes.pentax(serial: "4012345", bigEndian: true)
                + MakerMovieBoxes.pentax(serial: "3112345", bigEndian: false, ricoh: true)
                + ExifBuilder.isoBox("RMKN", builder.tiff()))
        let sony = MakerMovieBoxes.sony(make: "Sony", model: "ILCE-1", serial: "5012345")
        seeds.append(
            ExifBuilder.isoBox("ftyp", Array("isom".utf8) + [0, 0, 2, 0]) + ExifBuilder.isoBox("moov", udta) + sony)
        seeds.append(Array(sony.dropFirst(8 + 4 + 33 + 12)))
        for zip64 in [false, true] {
            var zip = ZipBuilder(zip64: zip64)
            zip.add("Takeout/Google Photos/2019/IMG_1.jpg", builder.jpeg(), deflated: true)
            zip.add("Takeout/Google Photos/2019/IMG_1.jpg.json", Array("{\"photoTakenTime\":{}}".utf8))
            seeds.append(zip.bytes())
        }
        return seeds
    }

    /// A Google Takeout JSON as Takeout writes it.
    static let takeoutSeed = """
        {"title": "IMG_1.jpg", "photoTakenTime": {"timestamp": "1562256912", "formatted": "4 juil. 2019"}, \
        "geoData": {"latitude": 48.85, "longitude": 2.29}, "geoDataExif": {"latitude": 0.0, "longitude": 0.0}, \
        "trashed": true}
        """

    /// An XMP sidecar with both forms of a property and a position.
    static let sidecarSeed = """
        <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">\
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" \
        xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" \
        exif:DateTimeOriginal="2019-05-12T10:11:12.34+02:00" exif:GPSLatitude="48,51.4512N" \
        exif:GPSLongitude="2,21.0504E"><photoshop:DateCreated>2019:05:12 10:11:12</photoshop:DateCreated>\
        </rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>
        """

    /// Writes ``builtSeeds()`` into `folder`, one file each, for libFuzzer to start from.
    public static func writeBuiltSeeds(to folder: URL) throws {
        for (index, seed) in Self.builtSeeds().enumerated() {
            try Data(seed).write(to: folder.appendingPathComponent("built-\(index).bin"))
        }
    }

    /// Inputs to mutate: the built ones, exiftool's raw and JPEG XL samples, the real videos'
    /// metadata boxes, and the heads of the real corpus's files, where the shared corpus is present.
    public static func seeds(realCorpus: URL? = nil) -> [[UInt8]] {
        // exiftool's raw and JPEG XL samples (small: their image data is cut away), where present.
        var seeds: [[UInt8]] = TestEnvironment.files(
            under: TestEnvironment.mediaCorpus.appendingPathComponent("exiftool-samples")
        ).filter { !["mov", "mts", "mkv", "heic"].contains($0.pathExtension) }.compactMap {
            try? [UInt8](Data(contentsOf: $0))
        }
        seeds += Self.builtSeeds()
        if let realCorpus {
            // Each real video as its `ftyp` and `moov` boxes: the metadata, without the frames.
            let videos = TestEnvironment.files(
                under: realCorpus.deletingLastPathComponent().appendingPathComponent("media/video"))
            for video in videos {
                guard let bytes = try? [UInt8](Data(contentsOf: video)) else { continue }
                let boxes = bytes.withUnsafeBytes { raw in
                    ISOBox.children(in: ByteReader(raw), range: 0..<raw.count).filter {
                        ["ftyp", "moov"].contains($0.type)
                    }
                }
                seeds.append(boxes.flatMap { bytes[$0.offset..<$0.payload.upperBound] })
            }
            // The iPhones' EXIF as bare TIFF, with Apple's maker note in it.
            for file in TestEnvironment.files(under: realCorpus.appendingPathComponent("heic")) {
                guard let bytes = try? [UInt8](Data(contentsOf: file)),
                    let block = bytes.withUnsafeBytes({ ExifLocator.tiffBlock(in: $0, kind: .heic).map { Array($0) } })
                else { continue }
                seeds.append(block)
            }
            let files = TestEnvironment.files(under: realCorpus).filter {
                ["jpg", "jpeg", "heic", "heif", "avif", "webp", "png"].contains($0.pathExtension.lowercased())
            }
            // A spread of them, each cut to its first 64 KiB (where the metadata is).
            for file in stride(from: 0, to: files.count, by: max(1, files.count / 24)).map({ files[$0] }) {
                guard let handle = try? FileHandle(forReadingFrom: file),
                    let head = try? handle.read(upToCount: 64 << 10)
                else { continue }
                seeds.append([UInt8](head))
            }
        }
        return seeds
    }
}

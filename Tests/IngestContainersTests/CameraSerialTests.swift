import Foundation
import IngestCore
import IngestTesting
import Testing

@testable import IngestContainers

/// The body's serial number, read as exiftool prints it: EXIF BodySerialNumber, then DNG's
/// CameraSerialNumber, the maker note's SerialNumber, and last the maker's internal number.
@Suite struct CameraSerialTests {
    /// exiftool's tags, in the order photoingest prefers them; the makers' own where it reads them.
    static let preferred = [
        "ExifIFD:SerialNumber", "IFD0:CameraSerialNumber", "Canon:SerialNumber", "Nikon:SerialNumber",
        "Olympus:SerialNumber", "Pentax:SerialNumber", "FujiFilm:InternalSerialNumber",
        "Sony:SerialNumber", "Panasonic:InternalSerialNumber", "Canon:InternalSerialNumber",
        "Sony:InternalSerialNumber",
    ]

    @Test("Every photo and raw file of the shared corpora names the serial exiftool prints, or none")
    func agreesWithExiftool() throws {
        let roots = [TestEnvironment.realCorpus, TestEnvironment.mediaCorpus]
        let files = roots.flatMap { TestEnvironment.files(under: $0) }.filter {
            $0.lastPathComponent != "README.md" && !$0.path.contains("/broken/") && !$0.path.contains("/video/")
        }
        try #require(files.count > 100, "the shared corpora are missing")
        let result = try runProgram(
            "exiftool",
            ["-j", "-a", "-G1", "-SerialNumber", "-CameraSerialNumber", "-InternalSerialNumber"]
                + files.map(\.path))
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var oracle: [String: [String: Any]] = [:]
        for entry in entries { if let file = entry["SourceFile"] as? String { oracle[file] = entry } }
        var named = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            guard case .supported(let kind) = MediaSniffer.sniff(bytes.prefix(MediaSniffer.headerLength)) else {
                continue
            }
            let ours = bytes.withUnsafeBytes { MediaIdentity(ExifLocator.exif(in: $0, kind: kind)).body.serial }
            let theirs = Self.preferred.lazy.compactMap { oracle[file.path]?[$0] }.first.map {
                "\($0)".trimmingCharacters(in: .whitespaces)
            }
            #expect(ours == theirs, "\(file.lastPathComponent): \(oracle[file.path] ?? [:])")
            if ours != nil { named += 1 }
        }
        #expect(named >= 12)
    }

    /// exiftool's tags for a video's serial: a Canon's or a Ricoh's EXIF, Nikon's NCTG, GoPro's
    /// GPMF, Panasonic's embedded EXIF, Pentax's maker note, Sony's XML.
    static let videoSerialTags = [
        "ExifIFD:SerialNumber", "Nikon:SerialNumber", "GoPro:CameraSerialNumber", "Panasonic:InternalSerialNumber",
        "Pentax:SerialNumber", "XML:DeviceSerialNo",
    ]

    /// The makers' videos: each maker's box where its cameras write it, in a clip ffmpeg made.
    static func makerVideos(in folder: TemporaryFolder) throws -> [String: URL] {
        let udta = { (box: [UInt8]) in ExifBuilder.isoBox("udta", box) }
        let goPro = Array(
            try Data(
                contentsOf: TestEnvironment.repository.appendingPathComponent(
                    "Tests/Fixtures/gopro/max-heromode-GPMF.bin")))
        // A Panasonic's EXIF as its videos carry it: the start of a JPEG, here the RW2 sample's own
        // embedded one (JpgFromRaw, 0x002E), up to the end of its APP1.
        let rw2 = Array(
            try Data(
                contentsOf: TestEnvironment.mediaCorpus.appendingPathComponent("exiftool-samples/Panasonic.rw2")))
        let exif = try #require(
            rw2.withUnsafeBytes { raw -> [UInt8]? in
                guard let tiff = TIFFStructure(raw), let jpeg = tiff.entry(0x002E, in: [.main(0)]),
                    jpeg.valueOffset + 6 <= raw.count, raw[jpeg.valueOffset + 3] == 0xE1
                else { return nil }
                let length = Int(raw[jpeg.valueOffset + 4]) << 8 | Int(raw[jpeg.valueOffset + 5])
                return Array(raw[jpeg.valueOffset..<min(raw.count, jpeg.valueOffset + 4 + length)])
            })
        // A Ricoh GR's whole TIFF, its serial in the EXIF IFD.
        var ricoh = ExifBuilder()
        ricoh.ifd0 = [(0x010F, .ascii("RICOH IMAGING COMPANY, LTD.")), (0x0110, .ascii("GR"))]
        ricoh.exif = [(0xA431, .ascii("R1234567"))]
        return [
            "canon": try Fixtures.canonVideo(named: "MVI_0001.MP4", in: folder),
            "nikon": try Fixtures.makerVideo(
                named: "DSC_0001.MOV", in: folder,
                inMovie: udta(MakerMovieBoxes.nikon(make: "NIKON", model: "NIKON Z 6_2", serial: "6012345"))),
            "gopro": try Fixtures.makerVideo(
                named: "GS010001.MP4", in: folder, inMovie: udta(MakerMovieBoxes.goPro(payload: goPro))),
            "panasonic": try Fixtures.makerVideo(
                named: "P1000001.MP4", in: folder,
                inMovie: udta(MakerMovieBoxes.panasonic(model: "DMC-LX3", exif: exif))),
            "pentax": try Fixtures.makerVideo(
                named: "IMGP0001.MOV", in: folder,
                inMovie: udta(MakerMovieBoxes.pentax(serial: "4012345", bigEndian: true))),
            "pentax-q": try Fixtures.makerVideo(
                named: "IMGP0002.MOV", in: folder,
                inMovie: udta(MakerMovieBoxes.pentax("thmb", serial: "4012346", bigEndian: false))),
            "ricoh": try Fixtures.makerVideo(
                named: "R0000001.MOV", in: folder, inMovie: udta(ExifBuilder.isoBox("RMKN", ricoh.tiff()))),
            "sony": try Fixtures.makerVideo(
                named: "C0001.MP4", in: folder, inMovie: [],
                afterMovie: MakerMovieBoxes.sony(make: "Sony", model: "ILCE-7M4", serial: "3012345")),
        ]
    }

    /// A video's fields as a run reads them: its boxes collected as its bytes stream past.
    static func fields(of video: URL) throws -> QuickTimeFields? {
        let bytes = Array(try Data(contentsOf: video))
        var collector = MovieBoxCollector(fileSize: UInt64(bytes.count))
        bytes.withUnsafeBytes { collector.consume($0, at: 0) }
        guard collector.isComplete else { return nil }
        return collector.movie.withUnsafeBytes { moov in
            collector.metadata.withUnsafeBytes { QuickTimeReader.fields(moov: moov, meta: $0) }
        }
    }

    @Test(
        "The videos of Canon, Nikon, GoPro, Panasonic, Pentax, Ricoh and Sony cameras name the serial exiftool reads; others none"
    )
    func videos() throws {
        let folder = TemporaryFolder("maker-videos")
        let makers = try Self.makerVideos(in: folder)
        let videos =
            makers.values.sorted { $0.path < $1.path }
            + TestEnvironment.files(under: TestEnvironment.mediaCorpus).filter {
                ["mp4", "mov", "m4v", "3gp"].contains($0.pathExtension.lowercased())
            }
        try #require(videos.count > 10, "the shared corpus has no videos")
        let result = try runProgram(
            "exiftool",
            [
                "-j", "-a", "-G1", "-Make", "-Model", "-SerialNumber", "-CameraSerialNumber", "-InternalSerialNumber",
                "-DeviceSerialNo",
            ] + videos.map(\.path))
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var oracle: [String: [String: Any]] = [:]
        for entry in entries { if let file = entry["SourceFile"] as? String { oracle[file] = entry } }
        for video in videos {
            let theirs = Self.videoSerialTags.lazy.compactMap { oracle[video.path]?[$0] }.first.map { "\($0)" }
            #expect(
                try Self.fields(of: video)?.serial == theirs, "\(video.lastPathComponent): \(oracle[video.path] ?? [:])"
            )
        }
        // What each maker's clip names: the serial exiftool reads, and the body.
        let expected: [String: CameraBody] = [
            "canon": CameraBody(make: "Canon", model: "Canon EOS M50", serial: "613040000565"),
            "nikon": CameraBody(make: "NIKON", model: "NIKON Z 6_2", serial: "6012345"),
            "gopro": CameraBody(make: nil, model: "GoPro Max", serial: "C3353424500199"),
            "panasonic": CameraBody(make: "Panasonic", model: "DMC-LX3", serial: "(F35) 2008:07:01 no. 0058"),
            "sony": CameraBody(make: "Sony", model: "ILCE-7M4", serial: "3012345"),
            "pentax": CameraBody(serial: "4012345"), "pentax-q": CameraBody(serial: "4012346"),
            "ricoh": CameraBody(make: "RICOH IMAGING COMPANY, LTD.", model: "GR", serial: "R1234567"),
        ]
        for (maker, video) in makers {
            let fields = try #require(try Self.fields(of: video), "\(maker)")
            #expect(CameraBody(make: fields.make, model: fields.model, serial: fields.serial) == expected[maker])
            #expect(expected[maker]?.serial.map { oracle[video.path]?.values.map { "\($0)" }.contains($0) } == true)
        }
    }

    @Test("A Ricoh GR III's photo and video name the serial of the Pentax note it writes as Ricoh's")
    func ricohGRIII() throws {
        let folder = TemporaryFolder("ricoh-gr3")
        var builder = ExifBuilder()
        builder.ifd0 = [(0x010F, .ascii("RICOH IMAGING COMPANY, LTD.")), (0x0110, .ascii("RICOH GR III"))]
        builder.exif = [
            (0x9003, .ascii("2025:09:27 21:39:00")),
            (0x927C, .undefined(MakerMovieBoxes.pentaxNote(serial: "3112345", bigEndian: false, ricoh: true))),
        ]
        let photo = folder.appending("R0000001.JPG")
        try Data(builder.jpeg()).write(to: photo)
        let video = try Fixtures.makerVideo(
            named: "R0000002.MOV", in: folder,
            inMovie: ExifBuilder.isoBox(
                "udta", MakerMovieBoxes.pentax(serial: "3112346", bigEndian: false, ricoh: true)))

        let bytes = Array(try Data(contentsOf: photo))
        let ours = bytes.withUnsafeBytes { MediaIdentity(ExifLocator.exif(in: $0, kind: .jpeg)).body }
        #expect(ours == CameraBody(make: "RICOH IMAGING COMPANY, LTD.", model: "RICOH GR III", serial: "3112345"))
        #expect(try Self.fields(of: video)?.serial == "3112346")

        // exiftool reads the photo's note as Pentax's; the video's only from 13.37 (this machine's
        // may be older: then it names none, and the clip follows 13.37's QuickTime table).
        let result = try runProgram("exiftool", ["-j", "-G1", "-SerialNumber", photo.path, video.path])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let theirs = { (file: URL) in
            entries.first { ($0["SourceFile"] as? String) == file.path }?["Pentax:SerialNumber"].map { "\($0)" }
        }
        #expect(theirs(photo) == "3112345")
        let version = try runProgram("exiftool", ["-ver"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        if let number = Double(version), number >= 13.37 {
            #expect(theirs(video) == "3112346")
        }
    }

    @Test("The makers' numbers are formatted as exiftool prints them")
    func formats() {
        #expect(MakerNote.canonSerial(12_345_678, model: "Canon EOS 5D") == "0012345678")
        #expect(MakerNote.canonSerial(12_345, model: "Canon EOS-1D Mark III") == "012345")
        #expect(MakerNote.canonSerial(0x0001_3039, model: "Canon EOS D30") == "000112345")
        #expect(
            MakerNote.fujifilmSerial("FPX20017035 592D31313034060427796060110384")
                == "FPX20017035 Y-1104 2006:04:27 796060110384")
        #expect(MakerNote.fujifilmSerial("not a serial") == "not a serial")
        #expect(MakerNote.panasonicSerial("F350807010058") == "(F35) 2008:07:01 no. 0058")
        #expect(MakerNote.panasonicSerial("12345") == "12345")
        #expect(MakerNote.nikonFormatted("NO= 1005a431   ") == "No= 1005a431")
        #expect(MakerNote.nikonFormatted("AUTO AF RAW") == "Auto AF RAW")
        #expect(MakerNote.nikonFormatted("BMW 123") == "BMW 123")
    }

    /// A Sony body's note, built byte by byte (no file of the shared corpora carries Sony's
    /// serials, and exiftool adds none to a note): the model, a header or none, 0x2031's text, and
    /// the plain bytes put at `at` in an enciphered 0x9050 block.
    struct SonyNote: Sendable, CustomTestStringConvertible {
        var model: String
        var header: [UInt8] = Array("SONY DSC ".utf8) + [0, 0, 0]
        var bigEndian = false
        var serial: String? = nil
        var enciphered: (at: Int, bytes: [UInt8])? = nil
        var testDescription: String { "\(self.model)\(self.header.isEmpty ? ", no header" : "")" }
    }

    static let sonyNotes: [SonyNote] = [
        SonyNote(model: "ILCE-9", serial: "78563412", enciphered: (0x88, [1, 2, 3, 4, 5, 6])),
        SonyNote(model: "ILCE-9", serial: "56341200"),
        SonyNote(model: "ILCE-7M3", enciphered: (0x88, [0x01, 0x23, 0x45, 0x67, 0x89, 0xFA])),
        SonyNote(model: "ILCE-7RM4A", header: [], enciphered: (0x88, [0x10, 0x52, 0xA5, 0xF8, 0x00, 0x99])),
        SonyNote(model: "NEX-6", bigEndian: true, enciphered: (0x7C, [0xDE, 0xAD, 0xBE, 0xEF])),
        SonyNote(model: "SLT-A77V", enciphered: (0xF0, [9, 8, 7, 6, 5])),
        SonyNote(model: "ILCE-1", enciphered: (0x8A, [0xC0, 0xFF, 0xEE, 0x12, 0x34, 0x56])),
        SonyNote(model: "ILME-FX3", enciphered: (0x88, [0x31, 0x41, 0x59, 0x26, 0x53, 0x58])),
        SonyNote(model: "NEX-7", enciphered: (0x7C, [1, 2, 3, 4])),
        SonyNote(model: "DSC-RX100M7", enciphered: (0x88, [1, 2, 3, 4, 5, 6])),
    ]

    /// A TIFF file of `note`'s body: IFD0 (Make, Model, the EXIF pointer), the EXIF IFD, its
    /// maker note at 0x200 (directory offsets count from the TIFF header).
    static func sonyFile(_ note: SonyNote) -> [UInt8] {
        let writer = TIFFDirectoryWriter(bigEndian: note.bigEndian)
        let (exif, at) = (0x100, 0x200)
        // FileFormat too: a note of one little-endian entry starts 01 00, which exiftool takes for
        // no Sony note.
        var entries: [(UInt16, TIFFDirectoryWriter.Value)] = [(0xB000, .byte([3, 0, 0, 0]))]
        if let serial = note.serial { entries.append((0x2031, .ascii(serial))) }
        if let plain = note.enciphered {
            var block = [UInt8](repeating: 0, count: 0x100)
            block.replaceSubrange(plain.at..<plain.at + plain.bytes.count, with: plain.bytes)
            // Sony's cipher: a byte b below 249 is written as b³ mod 249.
            entries.append((0x9050, .undefined(block.map { $0 < 249 ? UInt8(Int($0) * Int($0) * Int($0) % 249) : $0 })))
        }
        let body = note.header + writer.directory(entries, at: at + note.header.count)
        func padded(_ bytes: [UInt8], to count: Int) -> [UInt8] {
            bytes + [UInt8](repeating: 0, count: count - bytes.count)
        }
        var bytes = (note.bigEndian ? Array("MM".utf8) + [0, 0x2A] : Array("II".utf8) + [0x2A, 0]) + writer.u32(8)
        bytes += writer.directory(
            [(0x010F, .ascii("SONY")), (0x0110, .ascii(note.model)), (0x8769, .long([exif]))], at: 8)
        bytes = padded(bytes, to: exif)
        bytes += writer.directory([(0x927C, .undefined([]))], at: exif, elsewhere: [0x927C: (at, body.count)])
        return padded(bytes, to: at) + body
    }

    @Test("Sony's serials, plain and enciphered, are read as exiftool reads them", arguments: sonyNotes)
    func sonyAgreesWithExiftool(note: SonyNote) throws {
        let folder = TemporaryFolder("sony-note")
        let bytes = Self.sonyFile(note)
        let url = folder.appending("sony.tif")
        try Data(bytes).write(to: url)
        let result = try runProgram(
            "exiftool", ["-j", "-a", "-G1", "-Sony:SerialNumber", "-Sony:InternalSerialNumber", url.path])
        let oracle = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let theirs = (oracle["Sony:SerialNumber"] ?? oracle["Sony:InternalSerialNumber"]).map { "\($0)" }
        let ours = bytes.withUnsafeBytes { raw in TIFFStructure(raw).map { MediaIdentity([$0]).body.serial } }
        #expect(ours == theirs, "exiftool: \(oracle)")
        // Every body but the DSC and the NEX-7 has a number to show, so the test shows something.
        #expect((theirs == nil) == (note.model.hasPrefix("DSC-") || note.model == "NEX-7"))
        let maker = bytes.withUnsafeBytes { raw in TIFFStructure(raw).flatMap { MakerNote(in: $0) }?.maker }
        #expect(maker == .sony)
    }

    @Test("Sony's 0x2031 is printed as exiftool prints it")
    func sonySerialFormat() {
        #expect(MakerNote.sonySerial("78563412") == "12345678")
        #expect(MakerNote.sonySerial("56341200") == "00123456")
        #expect(MakerNote.sonySerial("x") == "00000000")
        #expect(MakerNote.sonyDeciphered[Int(UInt8(2 * 2 * 2))] == 2)
    }
}

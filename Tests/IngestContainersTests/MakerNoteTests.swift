import Foundation
import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// Each maker-note header `MakerNote` knows, in a TIFF file built around it with a real JPEG as
/// the preview: the preview it finds is the one exiftool extracts, byte for byte, so each rule of
/// where offsets count from is exiftool's.
@Suite struct MakerNoteTests {
    /// Where the parts of the test file go.
    static let exif = 0x100, note = 0x200, preview = 0x1000

    /// A maker note's bytes, given where the preview lies (its offset in the file and its length).
    typealias NoteBuilder = @Sendable (_ previewAt: Int, _ length: Int) -> [UInt8]

    struct Variant: Sendable, CustomTestStringConvertible {
        var name: String
        var make: String
        var fileBigEndian: Bool
        var maker: MakerNote.Maker
        var build: NoteBuilder
        var testDescription: String { self.name }
    }

    static let little = TIFFDirectoryWriter(bigEndian: false)
    static let big = TIFFDirectoryWriter(bigEndian: true)

    static func padded(_ bytes: [UInt8], to count: Int) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: max(0, count - bytes.count))
    }

    static let variants: [Variant] = [
        Variant(
            name: "OLYMPUS, CameraSettings as an IFD, offsets from the note", make: "OLYMPUS IMAGING CORP.",
            fileBigEndian: false, maker: .olympus
        ) { at, length in
            RawFileBuilder.olympusNote(
                header: Array("OLYMPUS\0II".utf8) + [3, 0], writer: little, previewStart: at - note, length: length)
        },
        Variant(
            name: "OLYMPUS big-endian in a little-endian file, CameraSettings as a blob", make: "OLYMPUS CORPORATION",
            fileBigEndian: false, maker: .olympus
        ) { at, length in
            // The blob is the first value kept out of the directory: at 12 + 2 + 2 × 12 + 4.
            let blob = RawFileBuilder.olympusCameraSettings(big, at: 42, previewStart: at - note, length: length)
            let main = big.directory([(0x0000, .undefined(Array("0100".utf8))), (0x2020, .undefined(blob))], at: 12)
            return Array("OLYMPUS\0MM".utf8) + [0, 3] + main
        },
        Variant(
            name: "OM SYSTEM, offsets from the note", make: "OM Digital Solutions", fileBigEndian: false,
            maker: .olympus
        ) { at, length in
            RawFileBuilder.olympusNote(
                header: Array("OM SYSTEM\0\0\0II".utf8) + [4, 0], writer: little, previewStart: at - note,
                length: length)
        },
        Variant(
            name: "OLYMP, 0x1036 and 0x1037, offsets from the TIFF header", make: "OLYMPUS OPTICAL CO.,LTD",
            fileBigEndian: true, maker: .olympus
        ) { at, length in
            Array("OLYMP\0".utf8) + [1, 0]
                + big.directory([(0x1035, .long([1])), (0x1036, .long([at])), (0x1037, .long([length]))], at: note + 8)
        },
        Variant(
            name: "OLYMP, 0x0088 and 0x0089, offsets from the TIFF header", make: "OLYMPUS OPTICAL CO.,LTD",
            fileBigEndian: false, maker: .olympus
        ) { at, length in
            Array("OLYMP\0".utf8) + [1, 0]
                + little.directory([(0x0088, .long([at])), (0x0089, .long([length]))], at: note + 8)
        },
        Variant(
            name: "AOC big-endian in a little-endian file, offsets from the TIFF header", make: "PENTAX Corporation",
            fileBigEndian: false, maker: .pentax
        ) { at, length in
            RawFileBuilder.pentaxNote(
                header: Array("AOC\0MM".utf8), writer: big, directoryAt: note + 6, previewStart: at, length: length)
        },
        Variant(
            name: "AOC naming no byte order: the file's", make: "Asahi Optical Co.,Ltd", fileBigEndian: true,
            maker: .pentax
        ) { at, length in
            RawFileBuilder.pentaxNote(
                header: Array("AOC\0  ".utf8), writer: big, directoryAt: note + 6, previewStart: at, length: length)
        },
        Variant(name: "PENTAX, offsets from the note", make: "PENTAX", fileBigEndian: false, maker: .pentax) {
            at, length in
            RawFileBuilder.pentaxNote(
                header: Array("PENTAX \0II".utf8), writer: little, directoryAt: 10, previewStart: at - note,
                length: length)
        },
        Variant(
            name: "RICOH (a GR III's), offsets from the note", make: "RICOH IMAGING COMPANY, LTD.",
            fileBigEndian: true, maker: .pentax
        ) { at, length in
            RawFileBuilder.pentaxNote(
                header: Array("RICOH\0II".utf8), writer: little, directoryAt: 8, previewStart: at - note,
                length: length)
        },
    ]

    /// A TIFF file: IFD0 (Make, the EXIF pointer), the EXIF IFD with the maker note, then `preview`.
    static func file(_ variant: Variant, preview: [UInt8]) -> [UInt8] {
        let writer = variant.fileBigEndian ? big : little
        let note = variant.build(Self.preview, preview.count)
        var bytes =
            (variant.fileBigEndian ? Array("MM".utf8) + [0, 0x2A] : Array("II".utf8) + [0x2A, 0]) + writer.u32(8)
        bytes += writer.directory([(0x010F, .ascii(variant.make)), (0x8769, .long([Self.exif]))], at: 8)
        bytes = padded(bytes, to: Self.exif)
        bytes += writer.directory(
            [(0x9003, .ascii("2024:05:06 07:08:09")), (0x927C, .undefined([]))], at: Self.exif,
            elsewhere: [0x927C: (Self.note, note.count)])
        precondition(bytes.count <= Self.note && Self.note + note.count <= Self.preview)
        return padded(padded(bytes, to: Self.note) + note, to: Self.preview) + preview
    }

    @Test("The preview a maker note points at is exiftool's PreviewImage", arguments: variants)
    func previewIsExiftools(variant: Variant) throws {
        let folder = TemporaryFolder("maker-note")
        let jpeg = try Fixtures.jpeg(in: folder, name: "preview.jpg", width: 64, height: 48)
        let preview = Array(try Data(contentsOf: jpeg))
        let bytes = Self.file(variant, preview: preview)
        let url = folder.appending("note.tif")
        try Data(bytes).write(to: url)

        let note = try #require(bytes.withUnsafeBytes { raw in TIFFStructure(raw).flatMap { MakerNote(in: $0) } })
        #expect(note.maker == variant.maker)
        #expect(note.previewRanges == [Self.preview..<Self.preview + preview.count])

        let theirs = try Fixtures.exiftool(["-b", "-PreviewImage"], files: [url])[url.path]?["PreviewImage"] as? String
        #expect(theirs.flatMap { Data(base64Encoded: String($0.dropFirst("base64:".count))) } == Data(preview))
    }

    @Test("Another maker's note, or one too short for its header, is none of these")
    func otherNotes() {
        for header in ["Nikon\0\u{2}\u{10}\0\0", "OLYMPUS\0", "AOC\0MM", "Apple iOS\0\0\u{1}II\0\0"] {
            let bytes = Array(header.utf8)
            let note = bytes.withUnsafeBytes {
                MakerNote(at: 0, count: bytes.count, in: ByteReader($0), bigEndian: false, origin: 0)
            }
            #expect(note == nil, "\(header.debugDescription)")
        }
    }
}

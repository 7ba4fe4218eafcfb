import Foundation
import IngestContainers
import IngestCore
import IngestDating
import IngestTesting
import Testing

@Suite struct MetadataReaderTests {
    static let dateTimeOriginal: UInt16 = 0x9003
    static let offsetTimeOriginal: UInt16 = 0x9011
    static let subSecTimeOriginal: UInt16 = 0x9291

    var builder: ExifBuilder {
        var builder = ExifBuilder()
        builder.exif = [
            (Self.dateTimeOriginal, .ascii("2025:09:27 21:39:00")), (Self.offsetTimeOriginal, .ascii("-07:00")),
            (Self.subSecTimeOriginal, .ascii("25")),
        ]
        builder.gps = [
            (0x001D, .ascii("2025:09:28")), (0x0007, .rationals([(4, 1), (39, 1), (0, 1)])), (0x0009, .ascii("A")),
        ]
        return builder
    }

    func fields(_ bytes: [UInt8], _ kind: MediaKind) -> ExifTimeFields? {
        bytes.withUnsafeBytes { MetadataReader.timeFields(in: $0, kind: kind) }
    }

    func expectAllFields(_ fields: ExifTimeFields?) {
        #expect(fields?.dateTimeOriginal == "2025:09:27 21:39:00")
        #expect(fields?.offsetTimeOriginal == "-07:00")
        #expect(fields?.subSecTimeOriginal == "25")
        #expect(fields?.gpsDateStamp == "2025:09:28")
        #expect(fields?.gpsTimeStamp == [ExifRational(4, 1), ExifRational(39, 1), ExifRational(0, 1)])
        #expect(fields?.gpsStatus == "A")
    }

    @Test func readsEveryTimeFieldFromAJPEG() {
        self.expectAllFields(self.fields(self.builder.jpeg(), .jpeg))
    }

    @Test func readsBigEndianBlocks() {
        var builder = self.builder
        builder.bigEndian = true
        self.expectAllFields(self.fields(builder.jpeg(), .jpeg))
    }

    @Test("EXIF after APP6-APP9 segments, as Samsung and Huawei phones write it")
    func exifAfterMakerSegments() {
        let app7: (UInt8, [UInt8]) = (0xE7, Array("SAMSUNG maker data".utf8) + [UInt8](repeating: 7, count: 300))
        let app0: (UInt8, [UInt8]) = (0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        self.expectAllFields(self.fields(self.builder.jpeg(segmentsBefore: [app0, app7, (0xE9, [1, 2, 3])]), .jpeg))
    }

    @Test("A DateTimeOriginal stored in IFD0 is read, not dropped by the loader")
    func dateInIFD0() {
        var builder = ExifBuilder()
        builder.ifd0 = [(0x010F, .ascii("Maker")), (Self.dateTimeOriginal, .ascii("2004:08:30 17:33:34"))]
        #expect(self.fields(builder.jpeg(), .jpeg)?.dateTimeOriginal == "2004:08:30 17:33:34")
    }

    @Test func stringsAreCutAtTheFirstNUL() {
        var builder = ExifBuilder()
        builder.exif = [(Self.dateTimeOriginal, .ascii("2025:09:27 21:39:00\u{0}garbage"))]
        #expect(self.fields(builder.jpeg(), .jpeg)?.dateTimeOriginal == "2025:09:27 21:39:00")
    }

    @Test func readsPNGAndWebPChunks() {
        self.expectAllFields(self.fields(self.builder.png(), .png))
        self.expectAllFields(self.fields(self.builder.webp(), .webp))
        self.expectAllFields(self.fields(self.builder.webp(prefixed: true), .webp))
        self.expectAllFields(self.fields(self.builder.tiff(), .tiff))
    }

    @Test("HEIC's Exif item, with and without the Exif\\0\\0 prefix after its offset")
    func heicItem() {
        self.expectAllFields(self.fields(self.builder.heif(prefixed: true), .heic))
        self.expectAllFields(self.fields(self.builder.heif(prefixed: false), .heic))
    }

    @Test func noExifIsNilNotACrash() {
        #expect(self.fields([0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0xFF, 0xD9], .jpeg) == nil)
        #expect(self.fields([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45], .jpeg) == nil)
        #expect(self.fields(Array(self.builder.heif(prefixed: true).prefix(60)), .heic) == nil)
        #expect(self.fields([], .png) == nil)
    }

    @Test("Truncating a valid file anywhere never crashes the readers")
    func truncationsAreSafe() {
        for container in [
            self.builder.jpeg(), self.builder.png(), self.builder.webp(), self.builder.heif(prefixed: true),
        ] {
            for length in 0..<container.count {
                for kind in [MediaKind.jpeg, .png, .webp, .heic, .tiff] {
                    _ = self.fields(Array(container.prefix(length)), kind)
                }
            }
        }
    }

    @Test("A file exiftool wrote: the reader sees what exiftool set")
    func exiftoolWrittenJPEG() throws {
        let folder = TemporaryFolder("exif")
        let url = try Fixtures.jpeg(
            in: folder,
            tags: [
                "EXIF:DateTimeOriginal": "2025:09:27 21:39:00", "EXIF:OffsetTimeOriginal": "+05:45",
                "EXIF:SubSecTimeOriginal": "070", "GPSDateStamp": "2025:09:27", "GPSTimeStamp": "15:54:00",
            ])
        let fields = self.fields(Array(try Data(contentsOf: url)), .jpeg)
        #expect(fields?.dateTimeOriginal == "2025:09:27 21:39:00")
        #expect(fields?.offsetTimeOriginal == "+05:45")
        #expect(fields?.subSecTimeOriginal == "070")
        #expect(fields?.gpsDateStamp == "2025:09:27")
        let capture = CaptureTimeResolver(assumedZone: TimeZone(identifier: "UTC")!).resolve(
            fields, fileModified: Date())
        #expect(capture.source == .exifOffset)
        #expect(RFC3339.format(capture.instant) == "2025-09-27T15:54:00.070Z")
    }
}

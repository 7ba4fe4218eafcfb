import Foundation
import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// Panasonic's `PANA`: the model in its header, the serial in the EXIF block it carries.
@Suite struct PanasonicMovieTagsTests {
    func body(_ box: [UInt8]) -> CameraBody? {
        box.withUnsafeBytes { PanasonicMovieTags.body(ByteReader($0), pana: 8..<$0.count) }
    }

    /// The start of a JPEG with EXIF naming `model` and the Panasonic maker note's internal serial.
    static func exif(model: String) throws -> [UInt8] {
        let folder = TemporaryFolder("pana")
        let jpeg = try Fixtures.jpeg(
            in: folder, name: "p.jpg", width: 32, height: 32, tags: ["Make": "Panasonic", "Model": model])
        return Array(try Data(contentsOf: jpeg))
    }

    @Test("The header's model where the EXIF block names none; at none of the offsets, no EXIF is made up")
    func header() {
        var box = MakerMovieBoxes.panasonic(model: "DC-GH6", exif: [])
        #expect(self.body(box) == CameraBody(model: "DC-GH6"))
        // Bytes at 0x4068 that are not a JPEG's start with EXIF: only the header is read.
        box = MakerMovieBoxes.panasonic(model: "DC-GH6", exif: [0xFF, 0xD8, 0xFF, 0xE0] + Array("JFIF\0\0II*\0".utf8))
        #expect(self.body(box) == CameraBody(model: "DC-GH6"))
        // A model of fewer than six characters is not one, as exiftool's condition says.
        #expect(self.body(MakerMovieBoxes.panasonic(model: "GH6", exif: [])) == nil)
        // A Leica's maker at byte 0.
        var leica = [UInt8](repeating: 0, count: 64)
        leica.replaceSubrange(0..<5, with: Array("LEICA".utf8))
        #expect(self.body(ExifBuilder.isoBox("LEIC", leica)) == CameraBody(make: "LEICA"))
    }

    @Test("The EXIF block's make and model win over the header's; cut anywhere, nothing past the end")
    func exifBlock() throws {
        let jpeg = try Self.exif(model: "DC-S5M2")
        let box = MakerMovieBoxes.panasonic(model: "DC-GH6", exif: jpeg)
        #expect(self.body(box) == CameraBody(make: "Panasonic", model: "DC-S5M2"))
        for length in stride(from: 0x4068, to: box.count, by: 97) {
            let cut = Array(box.prefix(length))
            let body = cut.withUnsafeBytes { PanasonicMovieTags.body(ByteReader($0), pana: 8..<$0.count) }
            #expect(body?.model == "DC-GH6" || body?.model == "DC-S5M2")
        }
    }
}

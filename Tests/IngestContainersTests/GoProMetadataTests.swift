import Foundation
import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// GoPro's `GPMF` records: the camera's serial (`CASN`) and model (`MINF`), nested or not.
@Suite struct GoProMetadataTests {
    func body(_ payload: [UInt8]) -> CameraBody? {
        payload.withUnsafeBytes { GoProMetadata.body(ByteReader($0), gpmf: 0..<$0.count) }
    }

    static func text(_ key: String, _ value: String) -> [UInt8] {
        let bytes = Array(value.utf8)
        return MakerMovieBoxes.goProRecord(key, type: UInt8(ascii: "c"), size: 1, count: bytes.count, bytes)
    }

    @Test("A GoPro Max's own records name its model and serial")
    func realCamera() throws {
        let payload = Array(
            try Data(
                contentsOf: TestEnvironment.repository.appendingPathComponent(
                    "Tests/Fixtures/gopro/max-heromode-GPMF.bin")))
        #expect(self.body(payload) == CameraBody(model: "GoPro Max", serial: "C3353424500199"))
    }

    @Test("Inside DEVC and STRM, after padded records; a key that is no key ends the walk")
    func nesting() {
        let inner =
            MakerMovieBoxes.goProRecord("VERS", type: UInt8(ascii: "B"), size: 1, count: 3, [7, 6, 0])
            + Self.text("MINF", "HERO12 Black") + Self.text("CASN", "C3441325000000")
        let stream = MakerMovieBoxes.goProRecord("STRM", type: 0, size: 1, count: inner.count, inner)
        let device = MakerMovieBoxes.goProRecord("DEVC", type: 0, size: 1, count: stream.count, stream)
        #expect(self.body(device) == CameraBody(model: "HERO12 Black", serial: "C3441325000000"))
        // A record of another key holding records is not walked into, as exiftool does not.
        let other = MakerMovieBoxes.goProRecord("XYZW", type: 0, size: 1, count: inner.count, inner)
        #expect(self.body(other) == nil)
        // A key of bytes no key has stops the walk before the serial.
        #expect(self.body([0x01, 0x02, 0x03, 0x04, 0x63, 1, 0, 0] + Self.text("CASN", "C1")) == nil)
        // Several values of more than one byte: each trimmed, as exiftool lists them.
        let pair = MakerMovieBoxes.goProRecord(
            "CASN", type: UInt8(ascii: "c"), size: 4, count: 2, Array("AB\0\0CD  ".utf8))
        #expect(self.body(pair)?.serial == "AB, CD")
    }

    @Test("Cut anywhere or claiming more than it holds: nothing read past the end, nothing made up")
    func truncated() {
        let record = Self.text("CASN", "C3441325000000")
        // Its value ends 8 + 14 bytes in; the padding after it may be missing.
        for length in 0..<8 + 14 {
            #expect(self.body(Array(record.prefix(length))) == nil)
        }
        var claims = record
        claims[7] = 200
        #expect(self.body(claims) == nil)
        // Nesting deeper than the limit is not followed.
        var nested = record
        for _ in 0..<20 { nested = MakerMovieBoxes.goProRecord("DEVC", type: 0, size: 1, count: nested.count, nested) }
        #expect(self.body(nested) == nil)
    }
}

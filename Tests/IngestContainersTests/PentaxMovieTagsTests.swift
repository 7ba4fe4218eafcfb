import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// Pentax's `PXMN` maker note and Ricoh's `RMKN` TIFF in a video's `udta`.
@Suite struct PentaxMovieTagsTests {
    func note(_ box: [UInt8]) -> CameraBody? {
        box.withUnsafeBytes { PentaxMovieTags.body(ByteReader($0), note: 8..<$0.count, model: nil) }
    }

    @Test("The note's serial in either byte order, Pentax's or a Ricoh's, its offsets counted from the payload")
    func serial() {
        #expect(self.note(MakerMovieBoxes.pentax(serial: "4012345", bigEndian: true)) == CameraBody(serial: "4012345"))
        #expect(
            self.note(MakerMovieBoxes.pentax("thmb", serial: "4012346", bigEndian: false))
                == CameraBody(serial: "4012346"))
        // A Ricoh GR III's: Pentax's note under Ricoh's name, the directory at 8.
        #expect(
            self.note(MakerMovieBoxes.pentax(serial: "3112346", bigEndian: false, ricoh: true))
                == CameraBody(serial: "3112346"))
    }

    @Test("Another header, a byte order that is none, a cut note: no serial, nothing read past the end")
    func refused() {
        let box = MakerMovieBoxes.pentax(serial: "4012345", bigEndian: true)
        var other = box
        // `RICOH\0`, then no byte order: not the GR III's note.
        other.replaceSubrange(8..<14, with: Array("RICOH\0".utf8))
        #expect(self.note(other) == nil)
        var order = box
        order.replaceSubrange(16..<18, with: Array("XX".utf8))
        #expect(self.note(order) == nil)
        for length in 8..<box.count - 1 {
            #expect(self.note(Array(box.prefix(length))) == nil)
        }
        // A Ricoh's TIFF that is not one.
        let tiff: [UInt8] = Array("RMKN".utf8) + [0, 1, 2, 3]
        #expect(tiff.withUnsafeBytes { PentaxMovieTags.body(ByteReader($0), tiff: 0..<$0.count) } == nil)
    }
}

import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// Nikon's `NCDT`: the `NCTG` records read as exiftool reads them, and where they stop.
@Suite struct NikonMovieTagsTests {
    func body(_ box: [UInt8]) -> CameraBody? {
        box.withUnsafeBytes { NikonMovieTags.body(ByteReader($0), ncdt: 8..<$0.count) }
    }

    @Test("Maker, model and serial, past a record of another format; text cut at its NUL")
    func reads() {
        let box = MakerMovieBoxes.nikon(make: "NIKON", model: "NIKON Z 6_2", serial: "6012345")
        #expect(self.body(box) == CameraBody(make: "NIKON", model: "NIKON Z 6_2", serial: "6012345"))
    }

    @Test("An unknown format or a value past the box ends the walk; cut anywhere, nothing is read past the end")
    func stops() {
        let box = MakerMovieBoxes.nikon(make: "NIKON", model: "NIKON Z 6_2", serial: "6012345")
        // The serial's record is last: a format code of 99 in the rational before it ends the walk there.
        var unknown = box
        let rational = unknown.indices.first { unknown[$0..<$0 + 4].elementsEqual([0, 0, 0, 0x16]) }!
        unknown[rational + 5] = 99
        #expect(self.body(unknown) == CameraBody(make: "NIKON", model: "NIKON Z 6_2", serial: nil))
        for length in 0..<box.count {
            let cut = Array(box.prefix(length))
            let body = cut.withUnsafeBytes { NikonMovieTags.body(ByteReader($0), ncdt: min(8, $0.count)..<$0.count) }
            #expect(body?.serial == nil)
        }
        #expect(self.body(ExifBuilder.isoBox("NCDT", ExifBuilder.isoBox("NCHD", [1, 2]))) == nil)
    }
}

import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// The TIFF walker: what it finds in a well-formed structure, and what a hostile one costs.
@Suite struct TIFFStructureTests {
    func walk(_ bytes: [UInt8]) -> TIFFStructure? {
        // Only what the walk stored may be read afterwards: the structure's reader points into `bytes`.
        bytes.withUnsafeBytes { TIFFStructure($0) }
    }

    @Test(
        "IFD0 leads to the EXIF and GPS IFDs, in either byte order, with their values read", arguments: [false, true])
    func walksTheDirectoriesEXIFNames(bigEndian: Bool) {
        var builder = ExifBuilder()
        builder.bigEndian = bigEndian
        builder.ifd0 = [(0x010F, .ascii("Maker")), (0x0112, .short([6]))]
        builder.exif = [(0x9003, .ascii("2025:09:27 21:39:00"))]
        builder.gps = [(0x0002, .rationals([(27, 1), (42, 1), (1_234, 100)]))]
        let bytes = builder.tiff()
        bytes.withUnsafeBytes { raw in
            guard let tiff = TIFFStructure(raw) else {
                Issue.record("a well-formed TIFF header was refused")
                return
            }
            #expect(tiff.bigEndian == bigEndian)
            #expect(tiff.directories.map(\.kind) == [.main(0), .exif, .gps])
            #expect(tiff.entry(0x010F, in: [.main(0)]).flatMap(tiff.string) == "Maker")
            #expect(tiff.entry(0x0112, in: [.main(0)]).flatMap { tiff.unsigned($0) } == 6)
            #expect(tiff.entry(0x9003, in: [.exif]).flatMap(tiff.string) == "2025:09:27 21:39:00")
            // A tag is looked for only in the directories named.
            #expect(tiff.entry(0x9003, in: [.main(0), .gps]) == nil)
            let latitude = tiff.entry(0x0002, in: [.gps]).flatMap(tiff.rationals)
            #expect(latitude == [ExifRational(27, 1), ExifRational(42, 1), ExifRational(1_234, 100)])
        }
    }

    @Test("Bytes that do not start with a TIFF header (or a raw format's variant of it) are not a structure")
    func refusesOtherHeaders() {
        #expect(self.walk(Array("GIF89a\0\0\0\0".utf8)) == nil)
        #expect(self.walk([0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0]) == nil)  // BigTIFF: not what cameras write
        #expect(self.walk([0x49, 0x49, 0x2A, 0x00]) == nil)  // shorter than a header
        // Panasonic's RW2 and Olympus's ORF headers are walked as TIFF.
        for magic: [UInt8] in [[0x49, 0x49, 0x55, 0x00], Array("IIRO".utf8), Array("MMOR".utf8)] {
            let bigEndian = magic[0] == 0x4D
            let writer = TIFFDirectoryWriter(bigEndian: bigEndian)
            let bytes = magic + writer.u32(8) + writer.directory([(0x010F, .ascii("OM"))], at: 8)
            #expect(self.walk(bytes)?.directories.count == 1, "header \(magic)")
        }
    }

    @Test("A directory whose next pointer leads back to itself is walked once")
    func aLoopIsWalkedOnce() {
        let writer = TIFFDirectoryWriter(bigEndian: false)
        let bytes =
            [0x49, 0x49, 0x2A, 0x00] + writer.u32(8) + writer.directory([(0x010F, .ascii("X"))], at: 8, next: 8)
        #expect(self.walk(bytes)?.directories.count == 1)
    }

    @Test("An entry whose value lies past the end is dropped; its neighbours are kept")
    func valuesOutsideTheBytesAreDropped() {
        let writer = TIFFDirectoryWriter(bigEndian: false)
        var bytes = [0x49, 0x49, 0x2A, 0x00] + writer.u32(8)
        bytes += writer.directory(
            [(0x010F, .ascii("Make")), (0x0110, .ascii("Model name")), (0x0112, .short([1]))], at: 8)
        // Point Model's value (the second entry, 12 bytes each after the count) far past the end.
        let pointer = 8 + 2 + 12 + 8
        bytes.replaceSubrange(pointer..<pointer + 4, with: writer.u32(1 << 20))
        let tiff = self.walk(bytes)
        #expect(tiff?.directories.first?.entries.map(\.tag) == [0x010F, 0x0112])
    }

    @Test("A directory that claims more entries than the bytes hold is cut to those that fit")
    func aDirectoryIsCutWhereTheBytesEnd() {
        let writer = TIFFDirectoryWriter(bigEndian: true)
        var bytes = [0x4D, 0x4D, 0x00, 0x2A] + writer.u32(8)
        bytes += writer.directory([(0x0100, .long([640])), (0x0101, .long([480]))], at: 8)
        bytes.replaceSubrange(8..<10, with: writer.u16(60_000))
        #expect(self.walk(bytes)?.directories.first?.entries.map(\.tag) == [0x0100, 0x0101])
    }

    @Test("A chain of directories longer than the limit costs at most directoryLimit directories")
    func longChainsAreBounded() {
        let writer = TIFFDirectoryWriter(bigEndian: false)
        var bytes = [0x49, 0x49, 0x2A, 0x00] + writer.u32(8)
        let size = writer.directory([(0x0100, .long([1]))], at: 0).count
        let chain = TIFFStructure.directoryLimit * 3
        for index in 0..<chain {
            let offset = 8 + index * size
            bytes += writer.directory(
                [(0x0100, .long([index]))], at: offset, next: index + 1 < chain ? offset + size : 0)
        }
        let tiff = self.walk(bytes)
        #expect(tiff?.directories.count == TIFFStructure.directoryLimit)
        #expect(tiff?.directories.last?.kind == .main(TIFFStructure.directoryLimit - 1))
    }
}

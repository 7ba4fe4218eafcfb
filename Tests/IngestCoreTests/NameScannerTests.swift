import IngestCore
import Testing

@Suite struct NameScannerTests {
    @Test("A suffix matches in any case, only at the end, and only with a name before it")
    func suffix() {
        let zip = Array(".zip".utf8)
        for name in ["a.zip", "Takeout-001.ZIP", "/x/y/Part 1.Zip", "é.zip"] {
            #expect(NameScanner.hasSuffix(name, lowercased: zip), "\(name)")
        }
        for name in [".zip", "zip", "a.zipx", "a.zi", "", "a.jpg", "a.z1p", "a.ZIP "] {
            #expect(!NameScanner.hasSuffix(name, lowercased: zip), "\(name)")
        }
        // A bridged or sliced string (no contiguous UTF-8 of its own) gives the same answer.
        let sliced = String("xx/IMG_1.XMP yy".dropLast(3))
        #expect(NameScanner.hasSuffix(sliced, lowercased: Array(".xmp".utf8)))
    }
}

import Testing

@testable import IngestDiscovery

@Suite struct NameHeadsTests {
    @Test("A file's partners and sidecars are kept, in any ASCII case; other files are not")
    func partnersAndSidecars() {
        guard let heads = NameHeads(of: ["IMG_1.jpg", "DSC_0042.NEF"]) else {
            Issue.record("no heads")
            return
        }
        for kept in [
            "IMG_1.jpg", "img_1.MOV", "IMG_1.xmp", "IMG_1.jpg.xmp", "IMG_1", "dsc_0042.jpg", "DSC_0042.NEF.xmp",
        ] {
            #expect(heads.keeps(Array(kept.utf8)), "\(kept)")
        }
        for left in ["IMG_10.jpg", "IMG_1 copy.jpg", "IMG_2.jpg", "DSC_0043.NEF", "P1010001.JPG", ".IMG_1.jpg"] {
            #expect(!heads.keeps(Array(left.utf8)), "\(left)")
        }
    }

    @Test("iCloud's CSVs are kept, and heads beyond ASCII, whose case Unicode folds; such arrivals read all")
    func csvsAndUnicode() {
        guard let heads = NameHeads(of: ["IMG_1.jpg"]) else {
            Issue.record("no heads")
            return
        }
        #expect(heads.keeps(Array("Photo Details.csv".utf8)))
        #expect(heads.keeps(Array("photo details-3.CSV".utf8)))
        #expect(!heads.keeps(Array("Photo Details.txt".utf8)))
        #expect(heads.keeps(Array("ÉTÉ.jpg".utf8)))
        #expect(heads.keeps([0x49, 0xFF, 0x2E, 0x6A]), "a name that is no UTF-8")
        #expect(NameHeads(of: [String]())?.keeps(Array("IMG_1.jpg".utf8)) == false)
        // An arrival beyond ASCII: the folder is read whole (a Kelvin sign is a K to `==`).
        #expect(NameHeads(of: ["IMG_\u{212A}.jpg"]) == nil)
    }
}

import Foundation
import Testing

@testable import IngestContainers

@Suite struct TakeoutPairingTests {
    /// The JSON `media` is paired with among `jsons`, and by which rule.
    static func pair(_ media: String, _ jsons: [String]) -> (json: String, rule: TakeoutPairing.Rule)? {
        let names = [media] + jsons
        return TakeoutPairing.pairs(in: names)[0].map { (names[$0.json], $0.rule) }
    }

    // Names as real Takeouts write them (the forms immich-go's issues collected).
    @Test(
        "Each of Takeout's naming forms pairs a file with its JSON, by its rule",
        arguments: [
            ("PXL_20211013_220651983.jpg", "PXL_20211013_220651983.jpg.json", TakeoutPairing.Rule.name),
            ("PXL_20231118_035751175.MP.jpg", "PXL_20231118_035751175.MP.jpg.json", .name),
            ("PXL_20210102_221126856.MP~2.jpg", "PXL_20210102_221126856.MP~2.jpg.json", .name),
            ("IMG_1234.jpg", "IMG_1234.jpg.supplemental-metadata.json", .name),
            ("DSC_0101(1).JPG", "DSC_0101.JPG(1).json", .shortened),
            ("IMG_2710(1).HEIC", "IMG_2710.HEIC(1).json", .shortened),
            ("IMG_1234(2).jpg", "IMG_1234.jpg.supplemental-metadata(2).json", .shortened),
            (
                "PXL_20230809_203449253.LONG_EXPOSURE-02.ORIGINA.jpg",
                "PXL_20230809_203449253.LONG_EXPOSURE-02.ORIGIN.json", .shortened
            ),
            (
                "05yqt21kruxwwlhhgrwrdyb6chhwszi9bqmzu16w0 2.jpg",
                "05yqt21kruxwwlhhgrwrdyb6chhwszi9bqmzu16w0 2.jp.json", .shortened
            ),
            (
                "😀😃😄😁😆😅😂🤣🥲☺️😊😇🙂🙃😉😌😍🥰😘😗😙😚😋😛.jpg", "😀😃😄😁😆😅😂🤣🥲☺️😊😇🙂🙃😉😌😍🥰😘😗😙😚😋.json",
                .shortened
            ),
            (
                "Backyard_ceremony_wedding_photography_xxxxxxx_m(494).jpg",
                "Backyard_ceremony_wedding_photography_xxxxxxx_(494).json", .shortened
            ),
            (
                "13039_327707840323_537645323_9470255_27214_n(1).jpg",
                "13039_327707840323_537645323_9470255_27214_n.j(1).json", .shortened
            ),
            (
                "original_1d4caa6f-16c6-4c3d-901b-9387de10e528_P(1).jpg",
                "original_1d4caa6f-16c6-4c3d-901b-9387de10e528_.json", .duplicate
            ),
            ("PXL_20220405_090123740.PORTRAIT-modifié.jpg", "PXL_20220405_090123740.PORTRAIT.jpg.json", .edited),
            ("IMG_1234-edited.jpg", "IMG_1234.jpg.json", .edited),
            ("IMG_1234-bearbeitet.jpg", "IMG_1234.jpg.supplemental-metadata.json", .edited),
            ("IMG_1234.MP4", "IMG_1234.HEIC.json", .edited),
            ("IMG_1234(1).MP4", "IMG_1234.HEIC(1).json", .edited),
        ])
    func forms(media: String, json: String, rule: TakeoutPairing.Rule) {
        let found = Self.pair(media, [json, "unrelated.jpg.json"])
        #expect(found?.json == json, "\(media)")
        #expect(found?.rule == rule, "\(media)")
    }

    @Test(
        "Names that only look alike are not paired",
        arguments: [
            ("PXL_20211013_220651958.jpg", "PXL_20211013_220651983.jpg.json"),
            ("PXL_20220405_090123741.PORTRAIT-modifié.jpg", "PXL_20220405_090123740.PORTRAIT.jpg.json"),
            ("DSC_0102(1).JPG", "DSC_0102.JPG(2).json"),
            ("DSC_0103.JPG", "DSC_0103.JPG(1).json"),
            ("DSC_0104(1).JPG", "DSC_0104.JPG.json"),
            (
                "Backyard_ceremony_wedding_photography_xxxxxxx_m(185).jpg",
                "Backyard_ceremony_wedding_photography_xxxxxxx_(494).json"
            ),
            // A longer number is another photo, not an edit of the shorter one.
            ("IMG_12-edited.jpg", "IMG_1.jpg.json"),
            ("IMG_1234.jpg", "metadata.json"),
        ])
    func lookalikes(media: String, json: String) {
        #expect(Self.pair(media, [json]) == nil, "\(media)")
    }

    @Test("The supplemental suffix cut to every length still pairs; the longest original wins an edit")
    func cuts() {
        let media = "IMG_20190704_181512.jpg"
        let suffix = Array(".supplemental-metadata")
        for length in 0...suffix.count {
            let json = media + String(suffix.prefix(length)) + ".json"
            let found = Self.pair(media, [json])
            #expect(found?.json == json, "cut to \(length)")
            #expect(found?.rule == (length == 0 || length == suffix.count ? .name : .shortened), "cut to \(length)")
        }
        // Takeout's real cut: the name less `.json` fits 46 code units.
        let long = "PXL_20230518_153547690.PORTRAIT.jpg"
        let cut = String((long + ".supplemental-metadata").utf16.prefix(46))!
        #expect(Self.pair(long, [cut + ".json"])?.rule == .shortened)
        #expect(Self.pair("IMG_12-edited.jpg", ["IMG_1.jpg.json", "IMG_12.jpg.json"])?.json == "IMG_12.jpg.json")
    }

    @Test("A folder's files each get their JSON, JSONs shared by edits and clips; a JSON is no file of its own")
    func folder() {
        let names = [
            "A.jpg", "A.jpg.json", "A-edited.jpg", "B.HEIC", "B.HEIC.json", "B.MP4", "C.jpg", "metadata.json",
            "D(1).jpg", "D.jpg(1).json", "D.jpg", "D.jpg.json",
        ]
        let pairs = TakeoutPairing.pairs(in: names).map { (names[$0.key], names[$0.value.json]) }
        #expect(
            Dictionary(uniqueKeysWithValues: pairs) == [
                "A.jpg": "A.jpg.json", "A-edited.jpg": "A.jpg.json", "B.HEIC": "B.HEIC.json", "B.MP4": "B.HEIC.json",
                "D(1).jpg": "D.jpg(1).json", "D.jpg": "D.jpg.json",
            ])
        #expect(TakeoutPairing.isTakeout(folder: "/x/Takeout/Google Photos/Photos from 2019"))
        #expect(TakeoutPairing.isTakeout(folder: "Takeout/Google Fotos/Urlaub"))
        #expect(!TakeoutPairing.isTakeout(folder: "/home/me/Pictures/2019"))
    }

    @Test("Hostile names never crash the pairing, and every pair it gives is a JSON with a file")
    func hostile() {
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "IMG", "(1)", "(", ")", ".", "..", ".json", ".jpg", "-", "-edited", ".supplemental-metadata", ".s", "😀",
            "☺️", "\u{0}", "/", " ", "(99999)", "(-1)", "(+1)", "é", "e\u{301}",
        ]
        for _ in 0..<2_000 {
            let names = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                    .joined()
            }
            for (file, pair) in TakeoutPairing.pairs(in: names) {
                #expect(!TakeoutPairing.isJSON(names[file]) && TakeoutPairing.isJSON(names[pair.json]))
            }
        }
    }
}

import Foundation
import IngestCore
import Testing

@Suite struct ContentHashTests {
    // SHA-256 of "abc", from FIPS 180-2.
    let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    @Test(
        "Every spelling the API uses parses to the same hash",
        arguments: [
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD",
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "SHA256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad_3247891_2024-09-27T14:09:22Z",
            "  ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n",
        ])
    func parsesSpellings(text: String) {
        #expect(ContentHash(parsing: text)?.hex == self.abc)
        #expect(ContentHash(parsing: text)?.prefixed == "sha256:" + self.abc)
    }

    @Test(arguments: [
        "", "abc", "sha256:",
        // Control bytes that would read as "256:" if folded to lower case with the letters.
        "sha\u{12}\u{15}\u{16}\u{1A}ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "zz7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", String(repeating: "a", count: 65),
    ])
    func refusesWhatIsNotAHash(text: String) {
        #expect(ContentHash(parsing: text) == nil)
    }
}

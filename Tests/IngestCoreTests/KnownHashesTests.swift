import IngestCore
import IngestHashing
import Testing

@Suite struct KnownHashesTests {
    /// Distinct real digests: the SHA-256 of each number's text.
    func digests(_ range: Range<Int>) -> [ContentHash] {
        range.map { ContentHasher.hash(Array("photo \($0)".utf8)) }
    }

    @Test("Holds exactly the hashes it was given, in any order and with repeats, and nothing else")
    func holdsWhatItWasGiven() {
        let held = self.digests(0..<5_000)
        var given = held + held.prefix(700)
        given.shuffle()
        let known = KnownHashes(given)
        #expect(known.count == 5_000)
        #expect(held.allSatisfy(known.contains), "a hash it was given is not found")
        #expect(!self.digests(5_000..<10_000).contains(where: known.contains), "a hash it was never given is found")
    }

    @Test func anEmptyListHoldsNothing() {
        let known: KnownHashes = []
        #expect(known.count == 0)
        #expect(!known.contains(ContentHasher.hash(Array("a".utf8))))
    }

    @Test("Hashes order as their digest bytes do: the order of their lowercase hex")
    func ordersByDigestBytes() {
        let hashes = self.digests(0..<2_000)
        #expect(hashes.sorted().map(\.hex) == hashes.map(\.hex).sorted())
    }

    @Test("A hash parsed from its hex is the hash of its digest bytes")
    func parsingAgreesWithTheDigest() {
        for hash in self.digests(0..<500) {
            #expect(ContentHash(parsing: hash.hex) == hash)
            #expect(ContentHash(parsing: hash.hex.uppercased()) == hash)
        }
    }
}

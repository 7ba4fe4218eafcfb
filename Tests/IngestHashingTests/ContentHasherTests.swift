import IngestCore
import IngestHashing
import Testing

@Suite struct ContentHasherTests {
    // SHA-256 of "abc", from FIPS 180-2.
    let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    @Test func hashesLikeTheStandard() {
        #expect(ContentHasher.hash(Array("abc".utf8)).hex == self.abc)
        #expect(ContentHasher.hash([UInt8]()).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func streamingEqualsOneShot() {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var hasher = ContentHasher()
        for chunk in stride(from: 0, to: bytes.count, by: 4093) {
            bytes[chunk..<min(chunk + 4093, bytes.count)].withUnsafeBytes { hasher.update($0) }
        }
        #expect(hasher.finalize() == ContentHasher.hash(bytes))
    }
}

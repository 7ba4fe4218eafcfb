import IngestCore
import Testing

@Suite struct PathKeyTests {
    @Test("Names that differ only in Unicode normalization are two keys, as they are two files")
    func normalizationFormsDiffer() {
        let composed = "/photos/caf\u{E9}"
        let decomposed = "/photos/cafe\u{301}"
        #expect(composed == decomposed, "Swift's strings compare these as equal")
        #expect(PathKey(composed) != PathKey(decomposed))
        #expect(Set([PathKey(composed), PathKey(decomposed)]).count == 2)
        #expect(PathKey(composed) == PathKey(Substring("/photos/caf\u{E9}/x.jpg").dropLast(6)))
    }
}

import IngestCore
import Testing

@Suite struct EditDistanceTests {
    @Test("Typos cost one edit each; the nearest word wins only within the limit")
    func distances() {
        #expect(EditDistance.between("run", "run") == 0)
        #expect(EditDistance.between("rnu", "run") == 2)
        #expect(EditDistance.between("near-edg", "near-edge") == 1)
        #expect(EditDistance.between("", "jobs") == 4)
        #expect(EditDistance.nearest(to: "rnu", among: ["run", "report", "events"], limit: 2) == "run")
        #expect(EditDistance.nearest(to: "upload", among: ["run", "report", "events"], limit: 2) == nil)
        // Ties go to the first in order, whatever order the words came in.
        #expect(EditDistance.nearest(to: "ab", among: ["ac", "aa"], limit: 1) == "aa")
    }
}

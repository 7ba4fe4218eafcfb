import Foundation
import IngestCore
import IngestHashing
import IngestOutcome
import Testing

@testable import IngestPipeline

@Suite struct GivenAgainTests {
    func stored(_ content: String) -> FileOutcome {
        FileOutcome(
            FileFacts(path: "/p/a.jpg", stamp: nil, sha256: ContentHasher.hash(Array(content.utf8))), .stored(note: nil)
        )
    }

    @Test("Found missing by verify: the stored outcome says it was sent again and why; other events say nothing")
    func missingSaysWhy() {
        let again = GivenAgain(missing: [1: "missing from the server when verify looked on 2026-11-28T00:00:00Z"])
        #expect(
            again.note(at: 1, for: self.stored("x"))
                == "sent again: missing from the server when verify looked on 2026-11-28T00:00:00Z")
        #expect(again.note(at: 0, for: self.stored("x")) == nil)
        let duplicate = FileOutcome(FileFacts(path: "/p/a.jpg", stamp: nil), .duplicate("held"))
        #expect(again.note(at: 1, for: duplicate) == nil)
    }

    @Test("Bytes changed under a path given before: said with the earlier hash; the same bytes again say nothing")
    func changedBytesAreSaid() {
        let earlier = ContentHasher.hash(Array("before".utf8))
        let again = GivenAgain(changed: [0], earlierHash: earlier)
        let note = again.note(at: 0, for: self.stored("after"))
        #expect(note?.hasPrefix(Verdict.sentBeforeNote + " (sha256 \(earlier.hex.prefix(12))…)") == true)
        #expect(again.note(at: 0, for: self.stored("before")) == nil)
        #expect(GivenAgain(changed: [0]).note(at: 0, for: self.stored("after")) == nil)
    }
}

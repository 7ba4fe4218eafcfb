import Foundation
import IngestCore
import IngestOutcome
import Testing

@Suite struct VerdictTests {
    @Test("Each verdict is counted under the status the report, the catalog and --json write, with its reason and code")
    func statusReasonAndCode() {
        let decode = IngestError(.decodeFailed, "decoding failed: bad Huffman table")
        #expect(Verdict.stored(note: nil).status == .uploaded)
        #expect(Verdict.wouldStore.status == .uploaded && Verdict.wouldStore.reason == nil)
        #expect(Verdict.outside(by: 90).status == .outside && Verdict.outside(by: 90).outsideBy == 90)
        #expect(Verdict.unchanged.status == .skipped && Verdict.unchanged.reason == "unchanged since an earlier run")
        #expect(Verdict.failed(decode).reason == decode.message && Verdict.failed(decode).errorCode == .decodeFailed)
        let broken = Verdict.knownBroken(reason: "decoding failed: bad Huffman table", code: .decodeFailed)
        #expect(broken.status == .skipped && broken.errorCode == .decodeFailed)
        #expect(broken.reason == "known broken, unchanged since an earlier run: decoding failed: bad Huffman table")
        #expect(broken.error == nil, "a known broken file is not a failure of this run")
    }

    @Test("Work cut short by a stopping run is pending, not failed: the next run does it")
    func stoppedWorkIsPending() {
        #expect(Verdict(IngestError(.stopped, "stopped")).status == .pending)
        #expect(Verdict(IngestError(.serverUnreachable, "no answer")).status == .pending)
        #expect(Verdict(IngestError(.uploadRejected, "HTTP 400")).status == .failed)
    }

    @Test("Only outcomes of this run's work reach the catalog")
    func catalogRecordsThisRunsWork() {
        let stamp = FileStamp(size: 10, modifiedNanoseconds: 0, inode: 1)
        let facts = FileFacts(path: "/p/a.jpg", stamp: stamp)
        #expect(FileOutcome(facts, .stored(note: nil)).recordInCatalog)
        #expect(!FileOutcome(facts, .unchanged).recordInCatalog)
        #expect(!FileOutcome(facts, .knownBroken(reason: nil, code: nil)).recordInCatalog)
        #expect(!FileOutcome(FileFacts(path: "/p/loop", stamp: nil), .skipped("symlink loop")).recordInCatalog)
    }
}

import IngestOutcome
import Testing

@Suite struct UploadCountsTests {
    @Test("No more uploads send than there are connections; the others are queued")
    func sendingAtMostTheConnections() {
        #expect(UploadCounts(begun: 9, connections: 2) == UploadCounts(sending: 2, queued: 7))
        #expect(UploadCounts(begun: 1, connections: 6) == UploadCounts(sending: 1, queued: 0))
        #expect(UploadCounts(begun: 0, connections: 6) == UploadCounts(sending: 0, queued: 0))
    }
}

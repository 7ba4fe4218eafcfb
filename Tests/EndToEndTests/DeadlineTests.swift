import Foundation
import IngestApp
import IngestCore
import IngestTesting
import Testing

/// `run --max-duration`: a nightly run that keeps its deadline, says what it left, and a next run
/// that does exactly that.
@Suite struct DeadlineTests {
    @Test(
        "--max-duration stops a run (exit 5) with what is left said; the next run does exactly that; every photo once")
    func aDeadlineStopsTheRunAndTheNextFinishes() throws {
        // Each upload takes at least 0.4 s, one at a time: 16 photos are more than 2 s of work.
        let server = try ReferenceServer(["--latency-ms", "400"])
        let event = try server.addEvent(name: "Party", start: "2025-09-26T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let cli = CommandLine("deadline")
        let corpus = try Fixtures.corpus(count: 16, seed: 63, megapixels: 0.1, in: cli.folder)
        let environment = ["PHOTOINGEST_TOKEN": try server.token()]
        let options = ["--server", server.url, "--timezone", "UTC", "--undated", "mtime", "--uploads", "1"]

        let first = try cli.ingest([corpus], options + ["--max-duration", "2s"], environment: environment)
        #expect(first.status == ExitStatus.deadline, "\(first.result.stderr)")
        let summary = try #require(first.summary?.event, "\(first.result.stdout)")
        #expect(summary.stoppedBy == "the deadline (--max-duration 02 s)", "\(summary)")
        let notReached = try #require(summary.notReached)
        let left = notReached + summary.counts.pending
        #expect(left > 0 && summary.counts.uploaded > 0, "\(summary)")
        #expect(first.result.stderr.contains("Stopped at the deadline (--max-duration 02 s)"), "\(first.result.stderr)")
        #expect(first.result.stderr.contains("Left for the next run: \(left) files"), "\(first.result.stderr)")
        // Every file (16 photos and the corpus's manifest) ended in this run or is counted as left.
        #expect(first.entries.count + notReached == 17)

        let second = try cli.ingest([corpus], options, environment: environment)
        #expect(second.status == 0, "\(second.result.stderr)")
        // What the first said it left is what the second did: the rest it found unchanged.
        #expect(second.entries.filter { $0.reason != "unchanged since an earlier run" }.count == left)
        #expect(second.summary?.event?.unchanged == 17 - left)
        #expect(second.summary?.event?.notReached == nil)
        // Nothing the first run did is done again, and every photo is on the server once.
        let firstDone = Set(first.entries.filter { $0.status == .uploaded }.map(\.path))
        #expect(firstDone.isDisjoint(with: second.entries.filter { $0.status == .uploaded }.map(\.path)))
        #expect(try server.sql("SELECT count(*) FROM event_photo WHERE event_id = '\(event)'") == "16")
    }
}

import Foundation
import IngestCore
import IngestOutcome
import Testing

@Suite struct EventSummaryTests {
    func shard(
        stored: Int, outside: Int, failed: Int = 0, unchanged: Int = 0, seconds: Double, transfers: [String: Int]? = nil
    ) -> EventSummary {
        var counts = EventSummary.StatusCounts(atArchive: true)
        counts.uploaded = stored
        counts.outside = outside
        counts.failed = failed
        counts.skipped = unchanged
        let files = stored + outside + failed + unchanged
        var summary = EventSummary(
            jsonText: """
                {"destination": "archive:/a", "event": "Party", "files": \(files), "unchanged": \(unchanged),
                 "nearEdge": 1, "bytes": \(files * 1_000), "seconds": \(seconds),
                 "stages": {"hash": {"count": \(files), "p50Seconds": \(seconds / 100), "p95Seconds": \(seconds / 10),
                 "totalSeconds": 1}}}
                """)!
        summary.counts = counts
        summary.transfers = transfers
        return summary
    }

    @Test("Shards' summaries add up: counts, files and bytes summed, time the slowest's, the line said again")
    func merging() throws {
        let merged = try #require(
            EventSummary.merging([
                self.shard(stored: 10, outside: 2, seconds: 4, transfers: ["requests": 12]),
                self.shard(stored: 7, outside: 0, failed: 1, unchanged: 3, seconds: 6),
                self.shard(stored: 5, outside: 1, seconds: 5, transfers: ["requests": 6, "retries": 1]),
            ]))
        #expect(merged.counts.uploaded == 22 && merged.counts.outside == 3 && merged.counts.failed == 1)
        #expect(merged.counts.skipped == 3 && merged.unchanged == 3)
        #expect(merged.files == 29 && merged.bytes == 29_000 && merged.nearEdge == 3)
        #expect(merged.seconds == 6)
        #expect(abs(merged.filesPerSecond - 26.0 / 6) < 1e-9)
        #expect(merged.stages["hash"]?.count == 29 && merged.stages["hash"]?.totalSeconds == 3)
        #expect(merged.stages["hash"]?.p95Seconds == 0.6)
        #expect(merged.transfers == ["requests": 18, "retries": 1])
        #expect(merged.summary == "22 Stored, 3 Outside event dates")
        #expect(merged.closingLine == "22 Stored, 3 Outside event dates; 1 failed")
        #expect(EventSummary.merging([]) == nil)
    }

    @Test("The summary line says only the counts that are not zero, in the destination's words")
    func lines() {
        var counts = EventSummary.StatusCounts()
        #expect(counts.summaryLine(dryRun: false) == "No photos uploaded")
        #expect(counts.summaryLine(dryRun: true) == "Nothing to upload")
        counts.uploaded = 3
        counts.duplicate = 1
        counts.undated = 2
        counts.pending = 4
        #expect(counts.summaryLine(dryRun: false) == "3 Uploaded, 1 Duplicates, 2 Undated")
        #expect(
            counts.closingLine(dryRun: true)
                == "Dry run, nothing written: 3 Would upload, 1 Duplicates, 2 Undated; 4 pending, for the next run")
        counts.atArchive = true
        #expect(counts.summaryLine(dryRun: false) == "3 Stored, 1 Duplicates, 2 Undated")
    }
}

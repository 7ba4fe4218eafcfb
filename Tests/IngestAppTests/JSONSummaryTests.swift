import Foundation
import IngestApp
import IngestCore
import IngestOutcome
import IngestPipeline
import Testing

/// The `--json` document: one shape for one event, another for several, both read back by the
/// same type.
@Suite struct JSONSummaryTests {
    func run(events names: [String]) -> RunSummary {
        let reports = names.map { name in
            var report = RunReport(destination: "archive:/a", event: Event(id: name, name: name), dryRun: false)
            let stamp = FileStamp(size: 10, modifiedNanoseconds: 0, inode: 1)
            report.add(FileOutcome(FileFacts(path: "/p/\(name).jpg", stamp: stamp), .stored(note: nil)))
            return report
        }
        var run = RunSummary(events: reports)
        run.filesDiscovered = 1
        run.filesDone = 1
        run.elapsedSeconds = 2
        run.fatalError = IngestError(.serverUnreachable, "the server did not answer")
        return run
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("One event: its fields at the top, with the time zone; read back whole")
    func oneEvent() throws {
        let summary = JSONSummary(self.run(events: ["Party"]), outsideAllEvents: 0, timeZone: "Europe/Paris")
        let object = try self.object(summary.jsonText)
        #expect(object["event"] as? String == "Party")
        #expect(object["timeZone"] as? String == "Europe/Paris")
        #expect(object["events"] == nil && object["totals"] == nil)
        // The archive's event: its accepted file is stored, not uploaded.
        #expect((object["counts"] as? [String: Int])?["stored"] == 1)
        #expect((object["counts"] as? [String: Int])?["uploaded"] == nil)
        #expect(object["stoppedBy"] as? String == "the server did not answer")
        let back = try JSONDecoder().decode(JSONSummary.self, from: Data(summary.jsonText.utf8))
        #expect(back == summary)
        #expect(back.event?.closingLine == "1 Stored")
    }

    @Test("Several events: each under events, the run's totals once, and the photos outside them all")
    func severalEvents() throws {
        let summary = JSONSummary(self.run(events: ["Party", "Brunch"]), outsideAllEvents: 3, timeZone: "UTC")
        let object = try self.object(summary.jsonText)
        #expect((object["events"] as? [[String: Any]])?.compactMap { $0["event"] as? String } == ["Party", "Brunch"])
        #expect(object["outsideAllEvents"] as? Int == 3)
        #expect((object["totals"] as? [String: Any])?["files"] as? Int == 1)
        #expect(object["counts"] == nil, "a run with several events has no counts of its own")
        #expect(try JSONDecoder().decode(JSONSummary.self, from: Data(summary.jsonText.utf8)) == summary)
    }

    @Test("A summary an older version left in a catalog reads, its missing fields as zero")
    func olderSummariesRead() throws {
        let old = #"{"counts":{"uploaded":4,"skipped":1},"event":"Party","files":5,"summary":"4 Uploaded"}"#
        let summary = try #require(EventSummary(jsonText: old))
        #expect(summary.counts[.uploaded] == 4 && summary.counts[.pending] == 0)
        #expect(summary.knownBroken == 0)
        #expect(summary.closingLine == "4 Uploaded", "before closingLine, the summary line was the last line")
        #expect(EventSummary(jsonText: "not json") == nil)
    }
}

import Foundation
import IngestOutcome
import IngestReport
import Testing

@Suite struct ImportSummaryTests {
    @Test("Complete only when every part finished; the JSON keeps parts, events and notes and reads back")
    func json() throws {
        let event = try #require(
            EventSummary(jsonText: #"{"event": "Party", "counts": {"stored": 4}, "closingLine": "4 Stored"}"#))
        let done = ImportPart(catalog: "/s/catalog-0.sqlite", shard: "0/2", state: .finished)
        let missing = ImportPart(catalog: "/s/catalog-1.sqlite", shard: "1/2", state: .notRun)
        let partial = ImportSummary(parts: [done, missing], events: [event])
        #expect(!partial.complete)
        #expect(partial.lines.last == "Party: 4 Stored (the sum of 1 of 2 shards)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(partial.jsonText.utf8)) as? [String: Any])
        #expect(object["complete"] as? Bool == false)
        #expect((object["parts"] as? [[String: Any]])?.map { $0["state"] as? String } == ["finished", "not-run"])
        #expect(try JSONDecoder().decode(ImportSummary.self, from: Data(partial.jsonText.utf8)) == partial)

        let whole = ImportSummary(
            parts: [ImportPart(catalog: "/c.sqlite", shard: nil, state: .finished)], events: [event])
        #expect(whole.complete)
        #expect(whole.lines == ["Party: 4 Stored"])
    }
}

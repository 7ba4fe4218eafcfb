import Foundation
import IngestApp
import IngestCore
import IngestDating
import IngestOutcome
import IngestPipeline
import Testing

/// A line of `--report`: the fields every line has are there even when null; the rest only when
/// they say something.
@Suite struct FileLineTests {
    let stamp = FileStamp(size: 2_048, modifiedNanoseconds: 0, inode: 7)
    let event = Event(id: "party", name: "Party")

    func object(_ line: FileLine) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: CompactJSON.data(line)) as? [String: Any])
    }

    @Test("A file that failed before it was read: nulls where nothing is known, and its error with its code")
    func failedBeforeRead() throws {
        let outcome = FileOutcome(
            FileFacts(path: "/p/cut.jpg", stamp: self.stamp), .failed(IngestError(.unreadable, "cannot open")))
        let object = try self.object(FileLine(outcome, event: nil))
        for key in ["sha256", "mediaType", "captureTime", "captureSource", "localTime", "offset", "event"] {
            #expect(object[key] is NSNull, "\(key)")
        }
        #expect(object["size"] as? Int == 2_048)
        #expect(object["scope"] as? String == "file")
        #expect(object["error"] as? String == "cannot open" && object["errorCode"] as? String == "unreadable")
        #expect(object["reason"] == nil)
    }

    @Test("An event's outside verdict says by how much; a stored one carries no error code")
    func eventLines() throws {
        let facts = FileFacts(
            path: "/p/a.jpg", stamp: self.stamp, kind: .jpeg,
            capture: CaptureTime(instant: Date(timeIntervalSince1970: 1_759_006_800), source: .exifOffset))
        let outside = try self.object(FileLine(FileOutcome(facts, .outside(by: 90)), event: self.event))
        #expect(outside["status"] as? String == "outside" && outside["outsideBySeconds"] as? Double == 90)
        #expect(outside["event"] as? String == "Party" && outside["scope"] as? String == "event")
        #expect(outside["captureTime"] as? String == "2025-09-27T21:00:00Z")
        // Said once for a file outside every event, without one event's distance.
        let everywhere = try self.object(FileLine(FileOutcome(facts, .outside(by: 90)), event: nil))
        #expect(everywhere["outsideEveryEvent"] as? Bool == true && everywhere["outsideBySeconds"] == nil)
        let stored = try self.object(FileLine(FileOutcome(facts, .stored(note: nil)), event: self.event))
        #expect(stored["errorCode"] == nil && stored["error"] == nil && stored["reason"] == nil)
        let dry = try self.object(FileLine(FileOutcome(facts, .wouldStore), event: self.event))
        #expect(dry["status"] as? String == "uploaded" && dry["dryRun"] as? Bool == true)
    }

    @Test("A known broken file names the earlier failure's code, null when that run kept none")
    func knownBroken() throws {
        let facts = FileFacts(path: "/p/b.jpg", stamp: self.stamp)
        let kept = try self.object(
            FileLine(FileOutcome(facts, .knownBroken(reason: "decoding failed", code: .decodeFailed)), event: nil))
        #expect(kept["knownBroken"] as? Bool == true && kept["errorCode"] as? String == "decodeFailed")
        #expect(kept["reason"] as? String == "known broken, unchanged since an earlier run: decoding failed")
        let none = try self.object(FileLine(FileOutcome(facts, .knownBroken(reason: nil, code: nil)), event: nil))
        #expect(none["errorCode"] is NSNull)
        let line = FileLine(FileOutcome(facts, .knownBroken(reason: nil, code: nil)), event: nil)
        #expect(try JSONDecoder().decode(FileLine.self, from: CompactJSON.data(line)) == line)
    }
}

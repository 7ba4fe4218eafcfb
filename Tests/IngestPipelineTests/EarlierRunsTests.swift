import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestDiscovery
import IngestHashing
import IngestTesting
import Testing

@testable import IngestPipeline

/// What earlier runs left in the catalog, read for one batch: which events still need each file,
/// which found it broken, and what was learned of it.
@Suite struct EarlierRunsTests {
    let folder = TemporaryFolder("earlier-runs")
    let stamp = FileStamp(size: 4_096, modifiedNanoseconds: 1_700_000_000_000_000_000, inode: 9)
    let window = EventWindow(start: RFC3339.parse("2025-09-27T00:00:00Z"), end: RFC3339.parse("2025-09-28T00:00:00Z"))
    var events: [Event] {
        ["done", "broken", "outside", "new"].map { Event(id: $0, name: $0, window: self.window) }
    }

    /// A catalog where the file is stored in "done", failed in its bytes in "broken", and outside
    /// "outside" (dated in `zone`, assumed).
    func catalog(zone: String = "UTC") async throws -> Catalog {
        let catalog = try Catalog(path: self.folder.appending("catalog.sqlite").path)
        let capture = CaptureTime(
            instant: Date(timeIntervalSince1970: 1_700_000_000), localTime: nil, offsetSeconds: 0,
            source: .exifAssumedZone, assumedZone: zone)
        for (event, status) in [("done", FileStatus.uploaded), ("broken", .failed), ("outside", .outside)] {
            let run = try await catalog.beginRun(destination: "archive:/a", event: event)
            try await catalog.record(
                [
                    CatalogRecord(
                        path: "/p/a.jpg", stamp: self.stamp, sha256: ContentHasher.hash(Array("a".utf8)),
                        mediaType: "image/jpeg", capture: capture, destination: "archive:/a", event: event,
                        window: self.window, status: status, reason: status == .failed ? "decoding failed: bad" : nil,
                        errorCode: status == .failed ? "decodeFailed" : nil, assumedZone: zone)
                ], run: run)
        }
        return catalog
    }

    func earlier(_ catalog: Catalog, stamp: FileStamp? = nil, zone: String = "UTC", retryFailed: Bool = false)
        async throws -> EarlierRuns
    {
        try await EarlierRuns(
            batch: [.file(DiscoveredFile(path: "/p/a.jpg", stamp: stamp ?? self.stamp))], catalog: catalog,
            destination: "archive:/a", events: self.events, zone: zone, readsPositions: false,
            retryFailed: retryFailed)
    }

    @Test("Each event gets what it still needs: done is done, broken stays broken, a new event needs the file")
    func plansPerEvent() async throws {
        let catalog = try await self.catalog()
        let plan = try await self.earlier(catalog).plan(at: 0)
        #expect(plan.pending == [3], "only the new event needs the file")
        #expect(plan.knownBroken.keys.sorted() == [1])
        #expect(plan.knownBroken[1]?.verdict == .knownBroken(reason: "decoding failed: bad", code: .decodeFailed))
        // Asked to retry, the broken event needs it again; a changed file is needed everywhere.
        #expect(try await self.earlier(catalog, retryFailed: true).plan(at: 0).pending == [1, 3])
        var touched = self.stamp
        touched.modifiedNanoseconds += 1
        #expect(try await self.earlier(catalog, stamp: touched).plan(at: 0).pending == [0, 1, 2, 3])
    }

    @Test("What was learned of the bytes is reused only for the same bytes, read in the same zone")
    func factsOfTheSameBytes() async throws {
        let catalog = try await self.catalog(zone: "Asia/Tokyo")
        let file = DiscoveredFile(path: "/p/a.jpg", stamp: self.stamp)
        let known = try #require(try await self.earlier(catalog, zone: "Asia/Tokyo").facts(of: file))
        #expect(known.sha256 == ContentHasher.hash(Array("a".utf8)))
        // Another zone: the time read in the old one is no fact for this run; nor is a changed file.
        #expect(try await self.earlier(catalog, zone: "Europe/Berlin").facts(of: file) == nil)
        var touched = file
        touched.stamp.inode += 1
        #expect(try await self.earlier(catalog, zone: "Asia/Tokyo").facts(of: touched) == nil)
        // The outside verdict, judged in Tokyo, is not final in Berlin: the event needs the file again.
        #expect(try await self.earlier(catalog, zone: "Europe/Berlin").plan(at: 0).pending == [2, 3])
    }
}

import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestHashing
import IngestTesting
import Testing

/// What `verify` reads of the catalog and marks in it, on a real SQLite file.
@Suite struct CatalogDeliveriesTests {
    let folder = TemporaryFolder("deliveries")
    var path: String { self.folder.appending("catalog.sqlite").path }
    let stamp = FileStamp(size: 1_234, modifiedNanoseconds: 1_700_000_000_000_000_000, inode: 42)

    func record(_ path: String, _ status: FileStatus, event: String, destination: String = "server:https://s")
        -> CatalogRecord
    {
        CatalogRecord(
            path: path, stamp: self.stamp, sha256: ContentHasher.hash(Array(path.utf8)), mediaType: "image/jpeg",
            capture: CaptureTime(instant: Date(timeIntervalSince1970: 1_759_006_800), source: .exifOffset),
            destination: destination, event: event, window: EventWindow(), status: status, reason: nil)
    }

    @Test("Only what was given to an event of this destination is a delivery: uploaded and duplicate, not the rest")
    func deliveriesAreTheUploadedAndTheDuplicates() async throws {
        let catalog = try Catalog(path: self.path)
        let run = try await catalog.beginRun(destination: "server:https://s", event: "e1", eventName: "Party")
        try await catalog.record(
            [
                self.record("/p/a.jpg", .uploaded, event: "e1"), self.record("/p/b.jpg", .duplicate, event: "e1"),
                self.record("/p/c.jpg", .outside, event: "e1"), self.record("/p/d.jpg", .failed, event: "e1"),
                self.record("/p/a.jpg", .uploaded, event: "e2"),
                self.record("/p/e.jpg", .uploaded, event: "e1", destination: "archive:/a"),
            ], run: run)
        let deliveries = try await catalog.deliveries(destination: "server:https://s")
        #expect(deliveries.map(\.path) == ["/p/a.jpg", "/p/b.jpg", "/p/a.jpg"])
        #expect(deliveries.map(\.event) == ["e1", "e1", "e2"])
        #expect(deliveries[0].hash == ContentHasher.hash(Array("/p/a.jpg".utf8)))
        #expect(deliveries[1].status == .duplicate)
        #expect(try await catalog.eventNames(destination: "server:https://s") == ["e1": "Party"])
    }

    @Test(
        "A delivery marked missing is failed with its reason in that event only: the next run does it, verify still checks it"
    )
    func aMarkedDeliveryIsToDoAgain() async throws {
        let catalog = try Catalog(path: self.path)
        let run = try await catalog.beginRun(destination: "server:https://s", event: "e1")
        try await catalog.record(
            [self.record("/p/a.jpg", .uploaded, event: "e1"), self.record("/p/a.jpg", .uploaded, event: "e2")],
            run: run)
        let first = try await catalog.deliveries(destination: "server:https://s")[0]
        try await catalog.markMissing([first], destination: "server:https://s", reason: "missing from the server")
        let entries = try await catalog.entries(
            for: ["/p/a.jpg"], destination: "server:https://s", events: ["e1", "e2"])
        #expect(entries[0, 0]?.status == .failed)
        #expect(entries[0, 0]?.errorCode == IngestError.Code.missingAtDestination.name)
        #expect(entries[0, 0]?.reason == "missing from the server")
        #expect(entries[0, 0]?.isKnownBroken(stamp: self.stamp) == false)
        #expect(entries[0, 1]?.status == .uploaded)
        // Still a delivery to check, now marked failed, until a run gives it again.
        let after = try await catalog.deliveries(destination: "server:https://s")
        #expect(after.map(\.event) == ["e1", "e2"])
        #expect(after.map(\.status) == [.failed, .uploaded])
    }
}

import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestHashing
import IngestTesting
import Testing

/// The ctime in the catalog's stamp, and the rows an older photoingest wrote without one.
@Suite struct CatalogChangeTimeTests {
    let folder = TemporaryFolder("catalog-ctime")
    var path: String { self.folder.appending("catalog.sqlite").path }

    func record(_ stamp: FileStamp) -> CatalogRecord {
        CatalogRecord(
            path: "/p/a.jpg", stamp: stamp, sha256: ContentHasher.hash(Array("a".utf8)), mediaType: "image/jpeg",
            capture: CaptureTime(instant: Date(timeIntervalSince1970: 1_759_006_800), source: .exifOffset),
            destination: "archive:/a", event: "default", window: EventWindow(), status: .uploaded, reason: nil)
    }

    @Test("A row without a ctime is done for the file as it is, until its ctime is recorded; then a moved ctime is not")
    func anOlderRowMatchesUntilItsCtimeIsRecorded() async throws {
        let catalog = try Catalog(path: self.path)
        let run = try await catalog.beginRun(destination: "archive:/a", event: "default")
        let older = FileStamp(size: 9, modifiedNanoseconds: 1_000_000_000, inode: 3)
        try await catalog.record([self.record(older)], run: run)
        var now = older
        now.changedNanoseconds = 1_700_000_000_000_000_001
        func entry() async throws -> CatalogEntry? {
            try await catalog.entries(for: ["/p/a.jpg"], destination: "archive:/a", events: ["default"])[0, 0]
        }
        #expect(try await entry()?.stamp.changedNanoseconds == nil)
        #expect(try await entry()?.isDone(stamp: now, window: EventWindow(), zone: "UTC") == true)

        try await catalog.recordChangeTimes([("/p/a.jpg", now.changedNanoseconds!)])
        #expect(try await entry()?.stamp == now)
        var edited = now
        edited.changedNanoseconds! += 1
        #expect(try await entry()?.isDone(stamp: edited, window: EventWindow(), zone: "UTC") == false)
        // Recorded once: a later call does not move it.
        try await catalog.recordChangeTimes([("/p/a.jpg", 42)])
        #expect(try await entry()?.stamp == now)
        #expect(try await catalog.facts(for: ["/p/a.jpg"])["/p/a.jpg"]?.stamp == now)
    }
}

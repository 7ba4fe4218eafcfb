import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestHashing
import IngestTesting
import Testing

/// The note of a send begun: left by a run killed mid-send, gone with the photo's outcome.
@Suite struct CatalogSendingTests {
    let folder = TemporaryFolder("catalog-sending")
    var path: String { self.folder.appending("catalog.sqlite").path }
    let hash = ContentHasher.hash(Array("a".utf8))

    func record(_ status: FileStatus, path: String = "/p/a.jpg") -> CatalogRecord {
        CatalogRecord(
            path: path, stamp: FileStamp(size: 1, modifiedNanoseconds: 0, inode: 3), sha256: self.hash,
            mediaType: "image/jpeg",
            capture: CaptureTime(instant: Date(timeIntervalSince1970: 1_759_006_800), source: .exifOffset),
            destination: "server:x", event: "e1", window: EventWindow(), status: status, reason: nil)
    }

    @Test("A send noted stays through a kill, a pending outcome and another file's; its own ended outcome removes it")
    func noteLastsUntilTheOutcome() async throws {
        let catalog = try Catalog(path: self.path)
        try await catalog.noteSending(self.hash, path: "/p/a.jpg", event: "e1", destination: "server:x")
        // What the next run sees: the file, not another path with the same bytes, nor another event.
        let reopened = try Catalog(path: self.path)
        #expect(try await reopened.wasSending(self.hash, path: "/p/a.jpg", event: "e1", destination: "server:x"))
        #expect(try await !reopened.wasSending(self.hash, path: "/p/b.jpg", event: "e1", destination: "server:x"))
        #expect(try await !reopened.wasSending(self.hash, path: "/p/a.jpg", event: "e2", destination: "server:x"))
        #expect(try await !reopened.wasSending(self.hash, path: "/p/a.jpg", event: "e1", destination: "archive:/a"))

        let run = try await reopened.beginRun(destination: "server:x", event: "e1")
        // Stopped mid-send: it may have arrived, so the note stays.
        try await reopened.record([self.record(.pending)], run: run)
        #expect(try await reopened.wasSending(self.hash, path: "/p/a.jpg", event: "e1", destination: "server:x"))
        // Another file with the same bytes, a duplicate while this one was on its way: the note stays.
        try await reopened.record([self.record(.duplicate, path: "/p/b.jpg")], run: run)
        #expect(try await reopened.wasSending(self.hash, path: "/p/a.jpg", event: "e1", destination: "server:x"))
        try await reopened.record([self.record(.uploaded)], run: run)
        #expect(try await !reopened.wasSending(self.hash, path: "/p/a.jpg", event: "e1", destination: "server:x"))
    }
}

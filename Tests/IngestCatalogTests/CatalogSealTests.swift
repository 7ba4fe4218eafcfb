import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestHashing
import IngestTesting
import Testing

/// Folder seals: recorded, read back by context, and broken by any write to a row of a file in
/// their folder.
@Suite struct CatalogSealTests {
    let folder = TemporaryFolder("catalog-seal")
    var path: String { self.folder.appending("catalog.sqlite").path }

    func record(_ path: String, status: FileStatus = .uploaded) -> CatalogRecord {
        CatalogRecord(
            path: path, stamp: FileStamp(size: 1, modifiedNanoseconds: 2, inode: 3, changedNanoseconds: 4),
            sha256: ContentHasher.hash(Array(path.utf8)), mediaType: "image/jpeg",
            capture: CaptureTime(instant: Date(timeIntervalSince1970: 1_759_006_800), source: .exifOffset),
            destination: "archive:/a", event: "default", window: EventWindow(), status: status, reason: nil)
    }

    /// A catalog holding photos in /p/2024, /p/2024/inner and /p/20240, each folder sealed.
    func sealedCatalog() async throws -> Catalog {
        let catalog = try Catalog(path: self.path)
        let run = try await catalog.beginRun(destination: "archive:/a", event: "default")
        try await catalog.record(
            ["/p/2024/a.jpg", "/p/2024/inner/b.jpg", "/p/20240/c.jpg"].map { self.record($0) }, run: run)
        try await catalog.recordSeals(
            [("/p/2024", "d1"), ("/p/2024/inner", "d2"), ("/p/20240", "d3")], context: "c")
        return catalog
    }

    @Test("A seal is read back under its own context only")
    func sealsByContext() async throws {
        let catalog = try await self.sealedCatalog()
        #expect(catalog.sealedDigest(of: "/p/2024", context: "c") == "d1")
        #expect(catalog.sealedDigest(of: "/p/2024", context: "another") == nil)
        #expect(catalog.sealedDigest(of: "/p", context: "c") == nil)
        #expect(catalog.holdsSeals(context: "c"))
        #expect(!catalog.holdsSeals(context: "another"))
        try await catalog.recordSeals([("/p/2024", "d9")], context: "c")
        #expect(catalog.sealedDigest(of: "/p/2024", context: "c") == "d9")
        #expect(try await catalog.sealCount() == 3)
    }

    @Test("verify's finding a photo missing breaks its folder's seal, and no other")
    func markMissingBreaksTheSeal() async throws {
        let catalog = try await self.sealedCatalog()
        let missing = Delivery(
            path: "/p/2024/a.jpg", event: "default", hash: ContentHasher.hash(Array("/p/2024/a.jpg".utf8)),
            status: .uploaded)
        try await catalog.markMissing([missing], destination: "archive:/a", reason: "gone")
        #expect(catalog.sealedDigest(of: "/p/2024", context: "c") == nil)
        #expect(catalog.sealedDigest(of: "/p/2024/inner", context: "c") == "d2")
        #expect(catalog.sealedDigest(of: "/p/20240", context: "c") == "d3")
    }

    @Test("A new row or a changed row in a folder breaks its seals, in every context")
    func writesBreakTheSeal() async throws {
        let catalog = try await self.sealedCatalog()
        try await catalog.recordSeals([("/p/2024/inner", "e2")], context: "other")
        let run = try await catalog.beginRun(destination: "archive:/a", event: "default")
        try await catalog.record([self.record("/p/2024/inner/new.jpg")], run: run)
        #expect(catalog.sealedDigest(of: "/p/2024/inner", context: "c") == nil)
        #expect(catalog.sealedDigest(of: "/p/2024/inner", context: "other") == nil)
        #expect(catalog.sealedDigest(of: "/p/2024", context: "c") == "d1")

        try await catalog.record([self.record("/p/20240/c.jpg", status: .failed)], run: run)
        #expect(catalog.sealedDigest(of: "/p/20240", context: "c") == nil)
        #expect(catalog.sealedDigest(of: "/p/2024", context: "c") == "d1")
    }

    @Test("The seal table's folder is what SQLite makes of any file's path, whatever its name holds")
    func folderOfOddNames() async throws {
        let catalog = try Catalog(path: self.path)
        let run = try await catalog.beginRun(destination: "archive:/a", event: "default")
        let names = ["/q/été 2024/IMG 1.jpg", "/q/a.b/c.d.e", "/q/x/ /y", "/root.jpg"]
        try await catalog.recordSeals(
            [("/q/été 2024", "1"), ("/q/a.b", "2"), ("/q/x/ ", "3"), ("", "4")], context: "c")
        try await catalog.record(names.map { self.record($0) }, run: run)
        for folder in ["/q/été 2024", "/q/a.b", "/q/x/ ", ""] {
            #expect(catalog.sealedDigest(of: folder, context: "c") == nil, "\(folder) kept its seal")
        }
    }
}

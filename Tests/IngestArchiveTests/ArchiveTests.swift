import Foundation
import IngestCore
import IngestHashing
import IngestTesting
import Testing

@testable import IngestArchive

@Suite struct ArchiveTests {
    let folder = TemporaryFolder("archive")

    func item(_ content: String) -> ArchiveItem {
        let bytes = Array(content.utf8)
        return ArchiveItem(
            hash: ContentHasher.hash(bytes), kind: .jpeg, filename: "IMG_0001.jpg",
            capturedAt: Date(timeIntervalSince1970: 0), captureSource: "file-mtime", original: .bytes(bytes),
            thumbnail500: Array("large".utf8), thumbnail200: Array("small".utf8))
    }

    @Test func storesContentAddressedFilesAndIndexesTheEvent() async throws {
        let archive = try Archive(root: self.folder.path)
        let event = Event(id: "party", name: "party")
        try await archive.register(event)
        let item = self.item("original bytes")
        #expect(try archive.store(item, inEvent: "party") == .stored)
        let hex = item.hash.hex
        let original = self.folder.appending("originals/\(hex.prefix(2))/\(hex).jpg")
        #expect(try Data(contentsOf: original) == Data("original bytes".utf8))
        #expect(
            try Data(contentsOf: self.folder.appending("thumbnails/500/\(hex.prefix(2))/\(hex).jpg"))
                == Data("large".utf8))
        #expect(
            try Data(contentsOf: self.folder.appending("thumbnails/200/\(hex.prefix(2))/\(hex).jpg"))
                == Data("small".utf8))
        #expect(try await archive.hashes(inEvent: "party") == [item.hash])
        // Nothing is left under a temporary name.
        #expect(try FileManager.default.contentsOfDirectory(atPath: self.folder.appending("tmp").path).isEmpty)
    }

    @Test(
        "A video is copied from its file, hashed on the way; a file changed since it was read is refused, nothing left behind"
    )
    func aVideoIsCopiedFromItsFileAndChecked() async throws {
        let archive = try Archive(root: self.folder.path)
        try await archive.register(Event(id: "party", name: "party"))
        let source = self.folder.appending("clip.mp4")
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(bytes).write(to: source)
        func item(_ hash: ContentHash) throws -> ArchiveItem {
            var status = stat()
            #expect(stat(source.path, &status) == 0)
            return ArchiveItem(
                hash: hash, kind: .mp4, filename: "clip.mp4", capturedAt: nil, captureSource: nil,
                original: .file(path: source.path, stamp: FileStamp(status)), thumbnail500: [], thumbnail200: [])
        }
        // Other bytes than those the hash was taken of: refused.
        let wrong = try item(ContentHasher.hash(Array("other".utf8)))
        let error = #expect(throws: IngestError.self) { try archive.store(wrong, inEvent: "party") }
        #expect(error?.message.contains("changed since it was read") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: self.folder.appending("tmp").path).isEmpty)

        let hash = ContentHasher.hash(bytes)
        #expect(try archive.store(try item(hash), inEvent: "party") == .stored)
        let stored = self.folder.appending("originals/\(hash.hex.prefix(2))/\(hash.hex).mp4")
        #expect(try Data(contentsOf: stored) == Data(bytes))
        // No frame decoded: no thumbnail files, empty paths in the index.
        #expect(
            !FileManager.default.fileExists(
                atPath: self.folder.appending("thumbnails/500/\(hash.hex.prefix(2))/\(hash.hex).jpg").path))
        let row = try runProgram(
            "sqlite3", [self.folder.appending("index.sqlite").path, "SELECT media_type, thumbnail_500 FROM photo"])
        #expect(row.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "video/mp4|")
    }

    @Test func theSameBytesAreStoredOncePerEventAndOnceOnDisk() async throws {
        let archive = try Archive(root: self.folder.path)
        try await archive.register(Event(id: "a", name: "a"))
        try await archive.register(Event(id: "b", name: "b"))
        let item = self.item("same")
        #expect(try archive.store(item, inEvent: "a") == .stored)
        #expect(try archive.store(item, inEvent: "a") == .duplicate)
        #expect(try archive.store(item, inEvent: "b") == .stored)
        let originals = TestEnvironment.files(under: self.folder.appending("originals"))
        #expect(originals.count == 1)
        #expect(try await archive.hashes(inEvent: "b") == [item.hash])
    }

    @Test("What a killed writer left in tmp/ is removed, unless it is young enough to be a live writer's")
    func staleTemporaryFilesAreRemoved() throws {
        let archive = try Archive(root: self.folder.path)
        let stale = archive.temporaryPath()
        let live = archive.temporaryPath()
        for path in [stale, live] { try Data("half a photo".utf8).write(to: URL(fileURLWithPath: path)) }
        let twoHoursAgo = Date().addingTimeInterval(-7_200)
        try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: stale)

        #expect(archive.removeStaleTemporaryFiles(olderThan: 3_600) == 1)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(archive.removeStaleTemporaryFiles(olderThan: 0) == 1)
        #expect(!FileManager.default.fileExists(atPath: live))
    }

    @Test("Events are listed in the order their windows open, whatever order they were added in")
    func eventsAreListedChronologically() async throws {
        let archive = try Archive(root: self.folder.path)
        let day: TimeInterval = 86_400
        let base = Date(timeIntervalSince1970: 1_759_000_000)
        for (name, offset) in [("Brunch", 2.0), ("Party", 1.0), ("Trip", 3.0)] {
            _ = try await archive.addEvent(
                name: name,
                window: EventWindow(
                    start: base.addingTimeInterval(offset * day), end: base.addingTimeInterval(offset * day + 3_600)),
                participants: ["alice"])
        }
        #expect(try await archive.events().map(\.event.name) == ["Party", "Brunch", "Trip"])
        #expect(try await archive.events(forUser: "alice").map(\.name) == ["Party", "Brunch", "Trip"])
    }

    @Test func aReopenedArchiveKnowsWhatItHolds() async throws {
        let item = self.item("kept")
        do {
            let archive = try Archive(root: self.folder.path)
            try await archive.register(Event(id: "e", name: "e"))
            _ = try archive.store(item, inEvent: "e")
        }
        let reopened = try Archive(root: self.folder.path)
        #expect(try await reopened.holds(item.hash, inEvent: "e"))
        #expect(try await !reopened.holds(ContentHasher.hash(Array("other".utf8)), inEvent: "e"))
    }

    @Test func anUnwritableArchiveIsAClearError() throws {
        let file = self.folder.appending("plain-file")
        try Data("x".utf8).write(to: file)
        #expect(throws: IngestError.self) { try Archive(root: file.path + "/archive") }
    }

    @Test("A photo of a group whose file cannot be synced fails alone: the others are placed and indexed, it is not")
    func aFailedSyncFailsItsPlacementAlone() async throws {
        let archive = try Archive(root: self.folder.path)
        try await archive.register(Event(id: "party", name: "party"))
        func placement(_ content: String, syncs: Bool) throws -> ArchivePlacement {
            let hash = ContentHasher.hash(Array(content.utf8))
            let path = ArchiveLayout.original(hash, kind: .jpeg)
            var staged = try #require(try archive.stage(Array(content.utf8), for: path))
            if !syncs {
                // A descriptor that names no open file: its sync fails as a disk's would.
                staged.file.close()
                staged.file = OpenFile(descriptor: -1)
            }
            return ArchivePlacement(
                staged: [staged],
                photo: [hash.hex, content.utf8.count, "image/jpeg", path, "", "", "2026-11-28T00:00:00Z"],
                eventPhoto: ["party", hash.hex, "\(content).jpg", nil, nil, "2026-11-28T00:00:00Z"])
        }
        let stored = try placement("stored", syncs: true)
        let failed = try placement("failed", syncs: false)
        Archive.commit([stored, failed], root: archive.root, index: archive.index)
        #expect(try stored.result?.get() == .stored)
        #expect(throws: IngestError.self) { try failed.result?.get() }
        #expect(try await archive.hashes(inEvent: "party") == [ContentHasher.hash(Array("stored".utf8))])
        let failedHash = ContentHasher.hash(Array("failed".utf8))
        #expect(
            !FileManager.default.fileExists(
                atPath: archive.root + "/" + ArchiveLayout.original(failedHash, kind: .jpeg)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: self.folder.appending("tmp").path).isEmpty)
    }
}

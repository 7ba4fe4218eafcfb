import Foundation
import IngestArchive
import IngestCore
import IngestHashing
import IngestTesting
import Testing

/// The archive's side of `verify`: each original read again against its hash, and what is
/// damaged let go of so that a later store writes it again.
@Suite struct ArchiveVerifyTests {
    let folder = TemporaryFolder("archive-verify")

    func store(_ content: String, in archive: Archive, events: [String] = ["party"]) throws -> ContentHash {
        let bytes = Array(content.utf8)
        let item = ArchiveItem(
            hash: ContentHasher.hash(bytes), kind: .jpeg, filename: "IMG.jpg", capturedAt: nil, captureSource: nil,
            original: .bytes(bytes), thumbnail500: Array("large".utf8), thumbnail200: Array("small".utf8))
        for event in events { #expect(try archive.store(item, inEvent: event) == .stored) }
        return item.hash
    }

    func check(_ archive: Archive) async throws -> [ContentHash: ArchiveDamage] {
        var found: [ContentHash: ArchiveDamage] = [:]
        var buffer = [UInt8](repeating: 0, count: 7)  // smaller than a file: read in several pieces
        for kept in try await archive.keptOriginals() {
            if let damage = archive.check(kept, buffer: &buffer) { found[kept.hash] = damage }
        }
        return found
    }

    @Test("Whole originals pass; a flipped byte, a missing original and a missing thumbnail are each told apart")
    func eachDamageIsFound() async throws {
        let archive = try Archive(root: self.folder.path)
        for event in ["party", "wedding"] { try await archive.register(Event(id: event, name: event)) }
        let whole = try self.store("whole original", in: archive, events: ["party", "wedding"])
        let flipped = try self.store("flipped original", in: archive)
        let gone = try self.store("gone original", in: archive)
        let thumbless = try self.store("thumbless original", in: archive)
        let kept = try await archive.keptOriginals()
        #expect(kept.count == 4)
        #expect(kept.first { $0.hash == whole }?.events.sorted() == ["party", "wedding"])

        let flippedPath = self.folder.appending(ArchiveLayout.original(flipped, kind: .jpeg)).path
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: flippedPath)))
        bytes[3] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: flippedPath))
        try FileManager.default.removeItem(
            atPath: self.folder.appending(ArchiveLayout.original(gone, kind: .jpeg)).path)
        try FileManager.default.removeItem(
            atPath: self.folder.appending(ArchiveLayout.thumbnail(thumbless, edge: 200)).path)

        let found = try await self.check(archive)
        #expect(found.count == 3)
        #expect(found[whole] == nil)
        #expect(found[flipped] == .originalDamaged(size: bytes.count))
        #expect(found[gone] == .originalMissing)
        #expect(found[thumbless] == .thumbnailMissing(ArchiveLayout.thumbnail(thumbless, edge: 200)))
    }

    @Test("What is let go of leaves the index; changed bytes go to damaged/, so that a store writes the original anew")
    func aForgottenOriginalIsStoredAgain() async throws {
        let archive = try Archive(root: self.folder.path)
        try await archive.register(Event(id: "party", name: "party"))
        let hash = try self.store("an original", in: archive)
        let path = self.folder.appending(ArchiveLayout.original(hash, kind: .jpeg)).path
        try Data("an originaL".utf8).write(to: URL(fileURLWithPath: path))
        let kept = try #require(try await archive.keptOriginals().first)
        var buffer = [UInt8](repeating: 0, count: 64)
        let damage = try #require(archive.check(kept, buffer: &buffer))

        let moved = try await archive.forget(kept, damage)
        #expect(moved == self.folder.appending("damaged/\(hash.hex).jpg").path)
        #expect(try String(contentsOfFile: try #require(moved), encoding: .utf8) == "an originaL")
        #expect(try await archive.hashes(inEvent: "party").count == 0)
        #expect(try await archive.keptOriginals().isEmpty)
        // The next store finds no original of that size in place, and writes the right bytes.
        #expect(try self.store("an original", in: archive) == hash)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "an original")
        #expect(try await self.check(archive).isEmpty)
    }
}

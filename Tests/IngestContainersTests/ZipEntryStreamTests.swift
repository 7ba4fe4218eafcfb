import Foundation
import IngestContainers
import IngestTesting
import Testing

@Suite struct ZipEntryStreamTests {
    static let photo = ZipDirectoryTests.photo

    @Test("Stored and deflated entries read back whole, in any chunk size", arguments: [1, 7, 4_096, 1 << 20])
    func content(chunk: Int) throws {
        var builder = ZipBuilder()
        builder.add("stored.jpg", Self.photo)
        builder.add("deflated.jpg", Self.photo, deflated: true)
        builder.add("empty.txt", [])
        let bytes = builder.bytes()
        for entry in try ZipFiles.entries(bytes) {
            #expect(try ZipFiles.content(entry, in: bytes, chunk: chunk) == (entry.size == 0 ? [] : Self.photo))
            #expect(try ZipFiles.whole(entry, in: bytes) == (entry.size == 0 ? [] : Self.photo))
        }
    }

    @Test(
        "A real writer's deflate (Python's zipfile, zlib level 6) reads back whole, ZIP64 too",
        arguments: [false, true])
    func realDeflate(zip64: Bool) throws {
        let folder = try TemporaryFolder()
        let text = Array(String(repeating: "compressible text, ", count: 20_000).utf8)
        let bytes = try ZipFiles.python([("a.jpg", Self.photo), ("b.txt", text)], zip64: zip64, in: folder)
        let entries = try ZipFiles.entries(bytes)
        #expect(entries[1].compressedSize < entries[1].size / 10)
        #expect(try ZipFiles.content(entries[0], in: bytes) == Self.photo)
        #expect(try ZipFiles.content(entries[1], in: bytes) == text)
        #expect(try ZipFiles.whole(entries[0], in: bytes) == Self.photo)
        #expect(try ZipFiles.whole(entries[1], in: bytes) == text)
    }

    /// Why reading `entry` of `bytes` failed; nil when it read. Streamed and whole, the two
    /// readers must agree on why.
    func failure(_ entry: ZipEntry, in bytes: [UInt8]) -> String? {
        var streamed: String?
        var whole: String?
        do {
            _ = try ZipFiles.content(entry, in: bytes)
        } catch {
            streamed = error.description
        }
        do {
            _ = try ZipFiles.whole(entry, in: bytes)
        } catch {
            whole = error.description
        }
        #expect((streamed == nil) == (whole == nil), "streamed: \(streamed ?? "read"); whole: \(whole ?? "read")")
        return streamed
    }

    @Test("A changed byte fails its CRC-32; a cut entry, a size that lies or a bomb fails with its reason")
    func damaged() throws {
        let folder = try TemporaryFolder()
        let text = Array(String(repeating: "compressible text, ", count: 20_000).utf8)
        let bytes = try ZipFiles.python([("a.jpg", Self.photo), ("b.txt", text)], in: folder)
        let entries = try ZipFiles.entries(bytes)
        // A byte of the stored photo's data... Python deflates it too: change a byte well inside.
        var changed = bytes
        let inside = Int(entries[0].localHeaderOffset) + 30 + 5 + 1_000
        changed[inside] ^= 0x01
        #expect(self.failure(entries[0], in: changed) != nil)
        // The text entry declared 1,000 bytes long: it decompresses to far more (a zip bomb's shape).
        var bomb = entries[1]
        bomb.size = 1_000
        #expect(self.failure(bomb, in: bytes)?.contains("more than its declared 1000 bytes") == true)
        // Declared longer than it is.
        var longer = entries[1]
        longer.size += 1
        #expect(self.failure(longer, in: bytes)?.contains("gave") == true)
        // A wrong CRC-32 in the directory.
        var crc = entries[1]
        crc.crc32 ^= 1
        #expect(self.failure(crc, in: bytes)?.contains("CRC-32") == true)
        // The file cut in the middle of the text's compressed data.
        let cut = Array(bytes.prefix(Int(entries[1].localHeaderOffset) + 30 + 5 + Int(entries[1].compressedSize) / 2))
        #expect(self.failure(entries[1], in: cut)?.contains("past the end") == true)
        // Its compressed data's second half zeroed, the zip's length kept: ZIPFoundation 0.9.20
        // never returns on this one (Linux, measured); here it fails at once.
        var zeroed = bytes
        let data = Int(entries[1].localHeaderOffset) + 30 + 5
        for index in data + Int(entries[1].compressedSize) / 2..<data + Int(entries[1].compressedSize) {
            zeroed[index] = 0
        }
        #expect(self.failure(entries[1], in: zeroed) != nil)
    }

    @Test("Encrypted entries and other compression methods are refused with the reason")
    func refused() throws {
        var builder = ZipBuilder()
        builder.add("a.jpg", [1, 2, 3])
        let bytes = builder.bytes()
        var entry = try ZipFiles.entries(bytes)[0]
        entry.isEncrypted = true
        #expect(self.failure(entry, in: bytes) == "it is encrypted")
        entry.isEncrypted = false
        entry.method = 12
        #expect(self.failure(entry, in: bytes)?.contains("compression method 12") == true)
    }
}

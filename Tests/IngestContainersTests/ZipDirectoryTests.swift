import Foundation
import IngestContainers
import IngestCore
import IngestTesting
import Testing

@Suite struct ZipDirectoryTests {
    static let photo = Array((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })

    @Test(
        "Entries are listed with their names, sizes, CRC-32, method and time; folders are not",
        arguments: [false, true])
    func listing(zip64: Bool) throws {
        var builder = ZipBuilder(zip64: zip64)
        builder.add("Takeout/Google Photos/2019/", [])
        builder.add("Takeout/Google Photos/2019/IMG_1.jpg", Self.photo, deflated: true)
        builder.add("Takeout/Google Photos/2019/IMG_1.jpg.json", Array("{}".utf8))
        let entries = try ZipFiles.entries(builder.bytes())
        #expect(
            entries.map(\.name) == [
                "Takeout/Google Photos/2019/IMG_1.jpg", "Takeout/Google Photos/2019/IMG_1.jpg.json",
            ])
        #expect(entries.map(\.size) == [70_000, 2])
        #expect(entries.map(\.method) == [ZipEntry.deflated, ZipEntry.stored])
        #expect(entries[0].crc32 == ZipBuilder.crc32(Self.photo))
        // 2024-05-04 13:16:16, read as UTC.
        #expect(entries[0].modifiedSeconds == 1_714_828_576)
    }

    @Test("A real writer's zip, ZIP64 too, lists what was written (Python's zipfile)", arguments: [false, true])
    func pythonZip(zip64: Bool) throws {
        let folder = try TemporaryFolder()
        let bytes = try ZipFiles.python(
            [("a/é.jpg", Self.photo), ("b.json", Array("{\"title\":1}".utf8))], zip64: zip64, in: folder)
        let entries = try ZipFiles.entries(bytes)
        #expect(entries.map(\.name) == ["a/é.jpg", "b.json"])
        #expect(entries.map(\.size) == [70_000, 11])
        #expect(entries[0].crc32 == ZipBuilder.crc32(Self.photo))
    }

    @Test("Names that are not UTF-8 are read as Latin-1, byte for byte")
    func latin1Names() throws {
        var builder = ZipBuilder()
        // "café.jpg" as an old Windows zipper writes it: é as one byte.
        builder.add(nameBytes: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8), [1, 2, 3])
        builder.add("naïve.jpg", [4])
        #expect(try ZipFiles.entries(builder.bytes()).map(\.name) == ["caf\u{E9}.jpg", "naïve.jpg"])
    }

    @Test("Damaged directories are refused with a reason: cut short, counts that lie, offsets outside")
    func damaged() throws {
        var builder = ZipBuilder()
        builder.add("a.jpg", Self.photo)
        builder.add("b.jpg", [1, 2, 3])
        let bytes = builder.bytes()
        #expect(throws: ZipError.self) { try ZipFiles.entries(Array(bytes.dropLast(30))) }
        #expect(throws: ZipError.self) { try ZipFiles.entries([]) }
        #expect(throws: ZipError.self) { try ZipFiles.entries(Array(repeating: 0, count: 100)) }
        // The end record's entry count (offset 10 of the record, 22 bytes from the end) raised.
        var lying = bytes
        lying[lying.count - 22 + 10] = 0xFF
        lying[lying.count - 22 + 8] = 0xFF
        #expect(throws: ZipError.self) { try ZipFiles.entries(lying) }
        // The directory's offset pointing past the end.
        var outside = bytes
        outside[outside.count - 22 + 19] = 0x7F
        #expect(throws: ZipError.self) { try ZipFiles.entries(outside) }
    }

    @Test("Every prefix and every single-byte change of a zip is listed or refused, never a crash")
    func hostileBytes() throws {
        var builder = ZipBuilder(zip64: true)
        builder.add("a.jpg", Array(Self.photo.prefix(300)), deflated: true)
        builder.add("b/c.jpg", [9, 8, 7])
        let bytes = builder.bytes()
        for length in 0...bytes.count {
            _ = try? ZipFiles.entries(Array(bytes.prefix(length)))
        }
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            var mutated = bytes
            mutated[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            guard let entries = try? ZipFiles.entries(mutated) else { continue }
            for entry in entries {
                // What a changed byte lets through never reads past the declared size.
                if let content = try? ZipFiles.content(entry, in: mutated) {
                    #expect(UInt64(content.count) == entry.size)
                }
            }
        }
    }
}

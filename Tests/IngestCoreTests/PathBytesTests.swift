import Foundation
import IngestCore
import Testing

@Suite struct PathBytesTests {
    @Test(
        "Names that are UTF-8 are themselves; other byte strings go there and back unchanged",
        arguments: [
            Array("plain.jpg".utf8),
            Array("café – 東京.heic".utf8),
            [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67],  // "café.jpg" in Latin-1
            [0xFF, 0xFE, 0x80, 0x0A, 0x22],
            [0xC3],  // a cut-off two-byte sequence
            Array("\u{10FF80}\u{10FFFF}".utf8),  // valid, but the escapes themselves
        ] as [[UInt8]])
    func roundTrips(bytes: [UInt8]) {
        let path = PathBytes.string(bytes)
        #expect(PathBytes.bytes(path) == bytes)
        let viaCString = PathBytes.withCString(path) { pointer in
            Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
        }
        #expect(viaCString == bytes)
        if let text = String(validating: bytes, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.value >= 0x10FF80 })
        {
            #expect(path == text)
        }
    }

    @Test func differentBytesNeverMeetInOneString() {
        let names: [[UInt8]] = [
            [0xE9], Array("é".utf8), Array("\\xe9".utf8), Array("\u{10FFE9}".utf8), [0xF4, 0x8F, 0xBF, 0xA9, 0xE9],
        ]
        #expect(Set(names.map(PathBytes.string)).count == names.count)
    }

    @Test("Text for people shows stray bytes and control characters as escapes, never raw")
    func printable() {
        let path = PathBytes.string([0x61, 0xE9, 0x0A, 0x62, 0x1B, 0x09])
        #expect(PathBytes.printable(path) == "a\\xe9\\nb\\x1b\\t")
        #expect(PathBytes.unicode(path) == "a\\xe9\nb\u{1B}\t")
        #expect(PathBytes.printable("ok/名前.jpg") == "ok/名前.jpg")
    }
}

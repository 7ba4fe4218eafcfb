import Foundation
import IngestContainers
import IngestCore
import IngestTesting
import Testing

@Suite struct ZipEntryContentTests {
    /// A zip of one entry `name` holding `content`, deflated or stored, written by Python's zipfile.
    static func zip(_ content: [UInt8], stored: Bool, in folder: TemporaryFolder) throws -> (URL, ZipEntry) {
        let source = folder.appending("content.bin")
        try Data(content).write(to: source)
        let zip = folder.appending(stored ? "stored.zip" : "deflated.zip")
        let script = """
            import sys, zipfile
            method = zipfile.ZIP_STORED if sys.argv[3] == "stored" else zipfile.ZIP_DEFLATED
            with zipfile.ZipFile(sys.argv[1], "w", method) as z:
                z.write(sys.argv[2], "folder/content.bin")
            """
        try Fixtures.check(
            runProgram("python3", ["-c", script, zip.path, source.path, stored ? "stored" : "deflated"]))
        let bytes = Array(try Data(contentsOf: zip))
        let entries = try ZipDirectory.entries(size: UInt64(bytes.count)) { offset, count throws(ZipError) in
            Array(bytes[Int(offset)..<min(bytes.count, Int(offset) + count)])
        }
        return (zip, try #require(entries.first))
    }

    @Test("Reads at any offset, forward, back and past the end, give the content's bytes", arguments: [false, true])
    func randomReads(stored: Bool) throws {
        let folder = TemporaryFolder("zip-entry-content")
        // Compressible and not: a pattern, then noise.
        var generator = SystemRandomNumberGenerator()
        let content =
            (0..<300_000).map { UInt8(truncatingIfNeeded: $0 / 7) }
            + (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let (zip, entry) = try Self.zip(content, stored: stored, in: folder)
        #expect(entry.method == (stored ? ZipEntry.stored : ZipEntry.deflated))
        let source = ContentSource.zipEntry(archive: zip.path, entry: entry, path: "x")
        #expect(source.size == Int64(content.count))
        let reader = try source.open()
        // Forward, forward with a gap, back to the start, into the end, past the end.
        for (offset, count) in [
            (0, 1000), (1000, 5000), (400_000, 70_000), (10, 100), (499_990, 100), (500_000, 10), (600_000, 1),
        ] {
            var buffer = [UInt8](repeating: 0, count: count)
            let got = try buffer.withUnsafeMutableBytes { raw in
                Result { () throws(IngestError) -> Int in try reader.read(into: raw, at: Int64(offset)) }
            }.get()
            let expected = Array(content[min(offset, content.count)..<min(offset + count, content.count)])
            #expect(got == expected.count, "at \(offset)")
            #expect(Array(buffer[..<got]) == expected, "at \(offset)")
        }
    }

    @Test("A deflated entry whose data is damaged fails its read with the zip's reason")
    func damaged() throws {
        let folder = TemporaryFolder("zip-entry-content-damaged")
        let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let (zip, entry) = try Self.zip(content, stored: false, in: folder)
        var bytes = Array(try Data(contentsOf: zip))
        // Zeroes over the middle of its compressed data.
        let start = Int(entry.localHeaderOffset) + 30 + "folder/content.bin".utf8.count
        for index in start + Int(entry.compressedSize) / 3..<start + Int(entry.compressedSize) * 2 / 3 {
            bytes[index] = 0
        }
        try Data(bytes).write(to: zip)
        let reader = try ContentSource.zipEntry(archive: zip.path, entry: entry, path: "x").open()
        var buffer = [UInt8](repeating: 0, count: content.count)
        #expect(throws: IngestError.self) {
            _ = try buffer.withUnsafeMutableBytes { raw in
                Result { () throws(IngestError) -> Int in try reader.read(into: raw, at: 0) }
            }.get()
        }
    }
}

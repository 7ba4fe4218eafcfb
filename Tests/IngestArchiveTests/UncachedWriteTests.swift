import Foundation
import IngestCore
import IngestTesting
import SystemPackage
import Testing

@testable import IngestArchive

@Suite struct UncachedWriteTests {
    let folder = TemporaryFolder("uncached-write")

    @Test(
        "Bytes written around the page cache read back whole and exactly as long, whatever their length",
        arguments: [1, 4_095, 4_096, 300_000, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 12_345])
    func writesReadBackWhole(size: Int) throws {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let path = self.folder.appending("file-\(size)").path
        let file = try UncachedWrite.create(path) ?? OpenFile(path, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o644)
        try UncachedWrite.write(bytes, to: file)
        file.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
    }

    @Test("A file that is there already is not written over")
    func refusesAnExistingFile() throws {
        let path = self.folder.appending("there").path
        try Data("kept".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: Errno.self) { try UncachedWrite.create(path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("kept".utf8))
    }
}

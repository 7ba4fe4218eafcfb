import Foundation
import IngestCore
import IngestTesting
import SystemPackage
import Testing

@Suite struct OpenFileTests {
    @Test("A file written, synced and read back through OpenFile holds the same bytes, under a name that is not UTF-8")
    func writesAndReadsBack() throws {
        let folder = TemporaryFolder("open-file")
        // "café.bin" in Latin-1: a name only its bytes can open.
        let path = folder.url.path + "/" + PathBytes.string([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x62, 0x69, 0x6E])
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let written = try OpenFile(path, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o600)
        try written.writeAll(bytes)
        try written.sync()
        try written.syncData()
        written.close()
        // A descriptor that names no open file: each sync says so.
        #expect(throws: Errno.badFileDescriptor) { try OpenFile(descriptor: -1).sync() }
        #expect(throws: Errno.badFileDescriptor) { try OpenFile(descriptor: -1).syncData() }

        let read = try OpenFile(path, O_RDONLY)
        defer { read.close() }
        #expect(try read.status().st_size == 300_000)
        var back = [UInt8](repeating: 0, count: 400_000)
        #expect(try read.readFully(into: &back) == 300_000)
        #expect(Array(back.prefix(300_000)) == bytes)
        #expect(try read.read(into: &back) == 0, "past the end, a read gives nothing")
    }

    @Test("A failure says what the system says, in its words")
    func failuresSayTheSystemsWords() throws {
        let folder = TemporaryFolder("open-file")
        let missing = folder.url.path + "/not-there.jpg"
        let error = #expect(throws: (any Error).self) { try OpenFile(missing, O_RDONLY) }
        #expect("\(error.map { "\($0)" } ?? "")" == "No such file or directory")
        let existing = folder.url.path + "/there"
        #expect(FileManager.default.createFile(atPath: existing, contents: Data([1])))
        let exclusive = #expect(throws: (any Error).self) {
            try OpenFile(existing, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o600)
        }
        #expect("\(exclusive.map { "\($0)" } ?? "")" == "File exists")
    }

    @Test("Folders are created once, renames replace, and a missing file is no error to remove")
    func pathOperations() throws {
        let folder = TemporaryFolder("file-system")
        let inner = folder.url.path + "/inner"
        try FileSystem.createFolder(inner)
        try FileSystem.createFolder(inner)
        #expect(throws: (any Error).self) { try FileSystem.createFolder(folder.url.path + "/no/such/parent") }
        #expect(FileManager.default.createFile(atPath: inner + "/a", contents: Data("a".utf8)))
        #expect(FileManager.default.createFile(atPath: inner + "/b", contents: Data("b".utf8)))
        try FileSystem.rename(inner + "/a", to: inner + "/b")
        #expect(FileManager.default.contents(atPath: inner + "/b") == Data("a".utf8))
        #expect(!FileManager.default.fileExists(atPath: inner + "/a"))
        FileSystem.remove(inner + "/b")
        FileSystem.remove(inner + "/b")
        #expect(!FileManager.default.fileExists(atPath: inner + "/b"))
    }
}

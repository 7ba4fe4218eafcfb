import Foundation
import IngestDiscovery
import IngestTesting
import Testing

@Suite struct PathTests {
    @Test func absolutePathsKeepTheUsersSpelling() throws {
        #expect(Discovery.absolute("/a//b/./c/") == "/a/b/c")
        #expect(Discovery.absolute("/") == "/")
        #expect(Discovery.absolute("/a/link/../b") == "/a/link/../b")
        #expect(Discovery.absolute("photos") == FileManager.default.currentDirectoryPath + "/photos")
        // A folder reached through a symbolic link keeps the link's name.
        let folder = TemporaryFolder("paths")
        try FileManager.default.createDirectory(at: folder.appending("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appending("link").path, withDestinationPath: "real")
        #expect(Discovery.absolute(folder.appending("link").path).hasSuffix("/link"))
    }
}

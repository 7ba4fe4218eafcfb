import Foundation
import IngestCore
import Testing

@Suite struct FileStatusTests {
    @Test("The archive stores, a server uploads; either word reads back as the same status")
    func wordsOfEachDestination() throws {
        #expect(FileStatus.uploaded.name(atArchive: true) == "stored")
        #expect(FileStatus.uploaded.name(atArchive: false) == "uploaded")
        #expect(FileStatus.duplicate.name(atArchive: true) == "duplicate")
        #expect(FileStatus(name: "stored") == .uploaded)
        #expect(FileStatus(name: "uploaded") == .uploaded)
        #expect(FileStatus(name: "kept") == nil)
        let decoded = try JSONDecoder().decode([FileStatus].self, from: Data(#"["stored","uploaded","failed"]"#.utf8))
        #expect(decoded == [.uploaded, .uploaded, .failed])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([FileStatus].self, from: Data(#"["x"]"#.utf8)) }
    }
}

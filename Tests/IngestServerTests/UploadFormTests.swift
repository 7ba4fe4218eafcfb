import Foundation
import Hummingbird
import IngestHashing
import Testing

@testable import IngestServer

/// The upload form as it streams in: the file part reaches its temporary file whole and hashed,
/// however the body is cut and however many bytes of it look like the start of a boundary.
@Suite struct UploadFormTests {
    static let boundary = "----photoingest-form-boundary"

    /// A multipart body with one field and the file part.
    static func body(file: [UInt8]) -> [UInt8] {
        var body = Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"filename\"\r\n\r\nIMG_0001.jpg\r\n".utf8)
        body += Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"IMG_0001.jpg\"\r\n\r\n".utf8)
        body += file
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        return body
    }

    /// Feeds the body in pieces of the given sizes, cycled, and finishes the form.
    static func feed(_ body: [UInt8], pieces: [Int], into form: UploadForm) throws {
        var start = 0
        var next = 0
        while start < body.count {
            let end = min(body.count, start + pieces[next % pieces.count])
            try form.feed(ByteBuffer(bytes: body[start..<end]))
            start = end
            next += 1
        }
        try form.finish()
    }

    @Test(
        "A 1.5 MB file part full of partial boundaries, fed in pieces from 1 byte to 64 KB, is stored byte for byte",
        arguments: [[65_536], [1, 7, 4_093, 65_536, 300_000], [1_048_576]])
    func storedWhole(pieces: [Int]) throws {
        // Random bytes with a carriage return, line feed and dashes every few hundred bytes: each
        // is where a boundary could begin, so the parser cuts the body there.
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        var file = [UInt8](random.readData(ofLength: 1_500_000))
        for index in stride(from: 100, to: file.count - 4, by: 300) {
            file.replaceSubrange(index..<index + 4, with: Array("\r\n--".utf8))
        }
        let directory = FileManager.default.temporaryDirectory.appending(path: "upload-form-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "upload").path
        let form = UploadForm(boundary: Self.boundary, temporaryPath: path)

        try Self.feed(Self.body(file: file), pieces: pieces, into: form)

        #expect(form.fields["filename"] == "IMG_0001.jpg")
        #expect(form.hasFile)
        #expect(form.fileSize == file.count)
        #expect(form.fileHead == Array(file.prefix(form.fileHead.count)))
        #expect(!form.fileHead.isEmpty)
        #expect(form.fileHash == ContentHasher.hash(file))
        #expect(try Data(contentsOf: URL(filePath: path)) == Data(file))
    }

    @Test("An empty file part leaves an empty file, hashed as empty")
    func emptyFile() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "upload-form-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "upload").path
        let form = UploadForm(boundary: Self.boundary, temporaryPath: path)

        try Self.feed(Self.body(file: []), pieces: [17], into: form)

        #expect(form.hasFile)
        #expect(form.fileSize == 0)
        #expect(form.fileHash == ContentHasher.hash([UInt8]()))
        #expect(try Data(contentsOf: URL(filePath: path)).isEmpty)
    }
}

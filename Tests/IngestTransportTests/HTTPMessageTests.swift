import Foundation
import IngestTesting
import IngestTransport
import Testing

/// Requests as ``HTTPTransport`` puts them on the wire, read back byte for byte by a loopback
/// listener: the headers libcurl sends, and multipart forms whose names cannot break the form.
///
/// Escaping happens inside libcurl (its mime API), so it is checked end to end, not on a
/// function of ours.
@Suite struct HTTPMessageTests {
    let folder = TemporaryFolder("http-message")

    /// Sends `request` over a transport of its own, shut down once the answer is in.
    func send(_ request: HTTPRequest) async throws -> Result<HTTPResponse, TransportError> {
        let transport = try HTTPTransport(options: TransportOptions())
        defer { transport.shutdown() }
        return await transport.perform(request)
    }

    @Test("Values and file names with quotes, backslashes, line breaks, ';' and UTF-8 arrive intact, injecting nothing")
    func hostileFormNames() async throws {
        let listener = try LoopbackListener()
        // A blank line inside the name would end the part's head early if it went out raw.
        let filename = "a\\b\"c;d\r\nX-Injected: 1\r\n\r\nstrand é 写真.jpg"
        let note = "line one\r\nX-Injected: 1\r\n\"quoted\" back\\slash; semi 🎉"
        // Over 1 MiB, where libcurl would otherwise send "Expect: 100-continue" and wait for an answer.
        let original = (0..<1_200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = self.folder.appending("original.jpg").path
        try Data(original).write(to: URL(fileURLWithPath: path))
        let thumbnail: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x0D, 0x0A, 0x22, 0x5C, 0xFF, 0xD9]
        let request = HTTPRequest(
            method: .post, url: "http://127.0.0.1:\(listener.port)/api/mobile-upload",
            headers: [("Authorization", "Bearer upload-token")],
            body: .multipart([
                FormPart(name: "note", content: .text(note)),
                FormPart(
                    name: "file", content: .file(path: path, size: Int64(original.count)), filename: filename,
                    contentType: "image/jpeg"),
                FormPart(
                    name: "thumbnail_500", content: .bytes(thumbnail), filename: "thumb\"\r\n.jpg",
                    contentType: "image/jpeg"),
            ]))

        let response = try await self.send(request).get()
        #expect(response.status == 200)
        #expect((try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["success"] as? Bool == true)

        let captured = try #require(listener.requests.first)
        #expect(listener.requests.count == 1)
        #expect(captured.headLines.first == "POST /api/mobile-upload HTTP/1.1")
        #expect(captured.header("Authorization") == "Bearer upload-token")
        #expect(captured.header("Expect") == nil)
        #expect(!captured.hasHeaderLine("X-Injected"))

        let parts = try #require(captured.formParts)
        #expect(parts.map(\.name) == ["note", "file", "thumbnail_500"])
        #expect(parts[0].content == Array(note.utf8))
        #expect(parts[0].filename == nil)
        #expect(parts[1].filename == filename)
        // As Data, so that a mismatch is reported by size, not as a million numbers.
        #expect(Data(parts[1].content) == Data(original))
        #expect(parts[1].header("Content-Type") == "image/jpeg")
        // Content-Disposition and Content-Type, and nothing a file name could have added.
        #expect(parts[1].headerLines.count == 2, "\(parts[1].headerLines)")
        #expect(parts[2].filename == "thumb\"\r\n.jpg")
        #expect(parts[2].content == thumbnail)
    }

    @Test("A header value with a line break never reaches the server as a header line of its own")
    func headerValuesCannotInject() async throws {
        // A token is the header value photoingest does not choose itself: it comes from the
        // environment or from --token-command's JSON, where a line break is one escaped "\n" away.
        let listener = try LoopbackListener()
        let request = HTTPRequest(
            method: .get, url: "http://127.0.0.1:\(listener.port)/api/getUserEventsWithAnalytics",
            headers: [("Authorization", "Bearer abc\r\nX-Injected: 1")])
        // Refusing the request and sending it without the line are both safe; sending the line is not.
        _ = try await self.send(request)
        for captured in listener.requests {
            #expect(!captured.hasHeaderLine("X-Injected"), "\(captured.headLines)")
        }
    }

    @Test("A JSON body goes out byte for byte with its Content-Type, and a bodiless POST says Content-Length: 0")
    func jsonAndEmptyBodies() async throws {
        let listener = try LoopbackListener()
        let json = Data(#"{"photoId":"p1","fileName":"été \"1\".jpg","progress":100}"#.utf8)
        let url = "http://127.0.0.1:\(listener.port)/api/events/e1/upload-progress"
        _ = try await self.send(HTTPRequest(method: .post, url: url, body: .json(json))).get()
        _ = try await self.send(HTTPRequest(method: .post, url: url)).get()

        let requests = listener.requests
        try #require(requests.count == 2)
        #expect(requests[0].header("Content-Type") == "application/json")
        #expect(requests[0].body == Array(json))
        #expect(requests[1].headLines.first == "POST /api/events/e1/upload-progress HTTP/1.1")
        #expect(requests[1].header("Content-Length") == "0")
        #expect(requests[1].body.isEmpty)
    }

    @Test("A file part whose file cannot be opened fails the request before anything is sent")
    func unreadableFile() async throws {
        let listener = try LoopbackListener()
        let missing = self.folder.appending("gone.jpg").path
        let request = HTTPRequest(
            method: .post, url: "http://127.0.0.1:\(listener.port)/api/mobile-upload",
            body: .multipart([FormPart(name: "file", content: .file(path: missing, size: 10), filename: "gone.jpg")]))
        guard case .failure(let error) = try await self.send(request) else {
            Issue.record("a form with a missing file was sent")
            return
        }
        #expect(error.message.contains("cannot prepare the request"))
        #expect(listener.requests.isEmpty)
    }
}

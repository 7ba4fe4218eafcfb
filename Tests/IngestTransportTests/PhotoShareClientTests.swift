import Foundation
import IngestCore
import IngestHashing
import IngestTesting
import IngestTransport
import Testing

/// The PhotoShare API as the client speaks it, against a loopback listener that records each
/// request and gives one fixed answer: the upload form's fields, which token goes where, and
/// how answers are read.
@Suite struct PhotoShareClientTests {
    let folder = TemporaryFolder("photoshare-client")

    /// Runs `body` with a client of `listener` holding fixed tokens and no retries; the transport
    /// is shut down afterwards.
    func withClient<T>(
        _ listener: LoopbackListener, functionsHost: Bool = false, _ body: (PhotoShareClient) async throws -> T
    ) async throws -> T {
        let base = "http://127.0.0.1:\(listener.port)"
        let transport = try HTTPTransport(options: TransportOptions())
        defer { transport.shutdown() }
        let client = PhotoShareClient(
            address: ServerAddress(baseURL: base + "/", functionsURL: functionsHost ? base : nil), transport: transport,
            tokens: TokenProvider(.fixed(access: "access-token", upload: "upload-token")),
            retry: RetryPolicy(retries: 0))
        return try await body(client)
    }

    @Test("An upload's form carries every field the API names, the odd file name intact in each, with the upload token")
    func uploadForm() async throws {
        let listener = try LoopbackListener()
        let filename = "Léa's \"best\" shot\\2025;\r\nX-Injected: 1.jpg"
        let bytes = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        let path = self.folder.appending("photo.jpg").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let hash = ContentHasher.hash(bytes)
        let photo = PhotoUpload(
            eventID: "event-1", path: path, filename: filename, mediaType: "image/jpeg", hash: hash,
            size: Int64(bytes.count), capturedAt: Date(timeIntervalSince1970: 1_759_009_140.75),
            thumbnail500: [0xFF, 0xD8, 0x05, 0xFF, 0xD9], thumbnail200: [0xFF, 0xD8, 0x02, 0xFF, 0xD9])

        let (outcome, statistics) = try await self.withClient(listener) { client in
            (try await client.upload(photo), client.transferStatistics)
        }
        #expect(outcome == .uploaded)
        #expect(statistics.bytesUploaded == Int64(bytes.count))
        #expect(statistics.requests == 1)

        let request = try #require(listener.requests.first)
        #expect(request.headLines.first == "POST /api/mobile-upload HTTP/1.1")
        #expect(request.header("Authorization") == "Bearer upload-token")
        #expect(!request.hasHeaderLine("X-Injected"))
        let parts = try #require(request.formParts)
        #expect(
            parts.map(\.name) == [
                "eventId", "filename", "mediaType", "photos", "file", "thumbnail_500", "thumbnail_200",
            ])
        let byName = Dictionary(parts.map { ($0.name ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["eventId"]?.text == "event-1")
        #expect(byName["filename"]?.text == filename)
        #expect(byName["mediaType"]?.text == "image/jpeg")
        #expect(byName["file"]?.filename == filename)
        #expect(byName["file"]?.header("Content-Type") == "image/jpeg")
        #expect(byName["file"]?.content == bytes)
        #expect(byName["thumbnail_500"]?.content == photo.thumbnail500)
        #expect(byName["thumbnail_200"]?.content == photo.thumbnail200)

        // `photos` is JSON that decodes back to exactly what the photo is.
        let photosJSON = try #require(byName["photos"]?.content)
        let described = try #require(try JSONSerialization.jsonObject(with: Data(photosJSON)) as? [[String: Any]])
        #expect(described.count == 1)
        let entry = try #require(described.first)
        #expect(entry["fileName"] as? String == filename)
        #expect(entry["photoHash"] as? String == "sha256:" + hash.hex)
        #expect(entry["fileSize"] as? Int == bytes.count)
        // Whole seconds, UTC, with Z: 1_759_009_140 is 2025-09-27T21:39:00Z.
        #expect(entry["dateTaken"] as? String == "2025-09-27T21:39:00Z")
        let device = entry["deviceInfo"] as? [String: Any]
        #expect(device?["platform"] as? String == "linux")
        #expect(device?["autoUpload"] as? Bool == false)
    }

    @Test("Without thumbnails the form has no thumbnail parts (the server makes its own)")
    func uploadWithoutThumbnails() async throws {
        let listener = try LoopbackListener()
        let path = self.folder.appending("bare.jpg").path
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: path))
        let photo = PhotoUpload(
            eventID: "e", path: path, filename: "bare.jpg", mediaType: "image/jpeg",
            hash: ContentHasher.hash([UInt8]([0xFF, 0xD8, 0xFF, 0xD9])), size: 4, capturedAt: Date(),
            thumbnail500: [], thumbnail200: [])
        _ = try await self.withClient(listener) { try await $0.upload(photo) }
        let parts = try #require(listener.requests.first?.formParts)
        #expect(parts.map(\.name) == ["eventId", "filename", "mediaType", "photos", "file"])
    }

    @Test("A 409, or a 200 that says duplicate, is a duplicate and not a failure")
    func duplicates() async throws {
        let path = self.folder.appending("dup.jpg").path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let photo = PhotoUpload(
            eventID: "e", path: path, filename: "dup.jpg", mediaType: "image/jpeg",
            hash: ContentHasher.hash([UInt8]([1, 2, 3])),
            size: 3, capturedAt: Date(), thumbnail500: [], thumbnail200: [])
        let conflict = try LoopbackListener(status: 409, body: #"{"success":false,"duplicate":true}"#)
        let refused = try await self.withClient(conflict) { try await $0.upload(photo) }
        #expect(refused == .duplicate)
        let production = try LoopbackListener(status: 200, body: #"{"success":true,"duplicate":true}"#)
        let accepted = try await self.withClient(production) { try await $0.upload(photo) }
        #expect(accepted == .duplicate)
    }

    @Test("Events are read with the access token; a time without a zone is UTC, and incomplete entries are left out")
    func events() async throws {
        let listener = try LoopbackListener(
            body: """
                {"success": true, "events": [
                  {"id": "e1", "name": "Birthday Party", "start_time": "2025-09-27T21:00:00Z", "end_time": "2025-09-28T05:00:00"},
                  {"id": 42, "name": "Numbered", "start_time": "2025-01-01T00:00:00+02:00", "end_time": "2025-01-02T00:00:00Z"},
                  {"id": "e3", "name": "No end", "start_time": "2025-01-01T00:00:00Z"}
                ]}
                """)
        let events = try await self.withClient(listener) { try await $0.events() }
        #expect(events.map(\.id) == ["e1", "42"])
        #expect(events.first?.name == "Birthday Party")
        #expect(events.first?.window.start == RFC3339.parse("2025-09-27T21:00:00Z"))
        #expect(events.first?.window.end == Date(timeIntervalSince1970: 1_759_035_600))
        #expect(events.last?.window.start == RFC3339.parse("2024-12-31T22:00:00Z"))
        let request = try #require(listener.requests.first)
        #expect(request.headLines.first == "GET /api/getUserEventsWithAnalytics HTTP/1.1")
        #expect(request.header("Authorization") == "Bearer access-token")
    }

    @Test("Both shapes of the hash list are read, and the event id is escaped into one path segment")
    func uploadedHashes() async throws {
        let a = ContentHasher.hash(Array("a".utf8))
        let b = ContentHasher.hash(Array("b".utf8))
        let web = try LoopbackListener(
            body: #"{"uploadedHashes": ["\#(a.hex)_1234_2025-09-27T21:00:00Z", "\#(b.hex.uppercased())"], "count": 2}"#)
        let fromWeb = try await self.withClient(web) { try await $0.uploadedHashes(eventID: "party/2025 é") }
        #expect(fromWeb == [a, b])
        #expect(web.requests.first?.headLines.first == "GET /api/events/party%2F2025%20%C3%A9/uploaded-photos HTTP/1.1")
        #expect(web.requests.first?.header("Authorization") == "Bearer access-token")

        let functions = try LoopbackListener(
            body: #"{"success": true, "photos": [{"id": "photo_1", "hash": "sha256:\#(a.hex)"}], "total_photos": 1}"#)
        let fromFunctions = try await self.withClient(functions, functionsHost: true) {
            try await $0.uploadedHashes(eventID: "e1")
        }
        #expect(fromFunctions == [a])
        #expect(functions.requests.first?.headLines.first == "GET /functions/v1/api-events-uploaded-photos/e1 HTTP/1.1")
    }

    @Test("A 401 with fixed tokens stops at once with a message naming the option to fix, and no secret")
    func refusedToken() async throws {
        let listener = try LoopbackListener(status: 401, body: #"{"success":false,"error":"invalid or expired token"}"#)
        let error = await #expect(throws: IngestError.self) {
            try await self.withClient(listener) { try await $0.events() }
        }
        #expect(error?.code == .tokenRefused)
        #expect(
            error?.message
                == "the server refused the access token (401: invalid or expired token); check --token"
        )
        #expect(error?.message.contains("access-token") == false)
        // Fixed tokens cannot be replaced: one request, not a retry loop.
        #expect(listener.requests.count == 1)
    }

    @Test("An answer that is not the API's JSON is refused as such, not taken for an empty list")
    func unusableAnswers() async throws {
        let listener = try LoopbackListener(body: #"{"something": "else"}"#)
        let events = await #expect(throws: IngestError.self) {
            try await self.withClient(listener) { try await $0.events() }
        }
        #expect(events?.code == .serverUnusable)
        let hashes = await #expect(throws: IngestError.self) {
            try await self.withClient(listener) { try await $0.uploadedHashes(eventID: "e1") }
        }
        #expect(hashes?.code == .serverUnusable)
    }

    @Test("Credentials in the server's URL are never shown: messages, the catalog and reports use the URL without them")
    func credentialsAreNotShown() {
        #expect(
            ServerAddress(baseURL: "https://alice:s3cret@photos.example.com:8443/").shown
                == "https://photos.example.com:8443")
        #expect(ServerAddress(baseURL: "http://127.0.0.1:8080").shown == "http://127.0.0.1:8080")
    }
}

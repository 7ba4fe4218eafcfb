import Foundation
import Hummingbird
import HummingbirdTesting
import IngestArchive
import IngestCore
import IngestServer
import IngestTesting

/// photoshare-server in process over a fresh data folder, spoken to through Hummingbird's
/// `.router` test client: requests go straight to the router, with no socket in between.
///
/// Events and tokens are made the way `photoshare-server event add` and `token` make them,
/// through the archive and ``TokenAuthority``; what the routes stored is read back through the
/// archive and the data folder.
struct ServerHarness: Sendable {
    static let secret = ReferenceServer.secret
    let data: TemporaryFolder
    /// Test photos, outside the data folder as a client's would be.
    let photos = TemporaryFolder("server-routes-photos")
    let archive: Archive

    init() throws {
        let data = TemporaryFolder("server-routes")
        self.data = data
        self.archive = try Archive(root: data.path)
    }

    /// An event from 2025-09-27T21:00:00Z to 2025-09-28T05:00:00Z unless told otherwise.
    func addEvent(
        _ name: String, start: String = "2025-09-27T21:00:00Z", end: String = "2025-09-28T05:00:00Z",
        participants: [String]
    ) async throws -> Event {
        try await self.archive.addEvent(
            name: name, window: EventWindow(start: RFC3339.parse(start), end: RFC3339.parse(end)),
            participants: participants)
    }

    /// A token signed as `photoshare-server token` signs it (with another secret, to forge one).
    func token(
        _ user: String = "alice", kind: TokenKind? = nil, ttl: TimeInterval = 3_600, secret: String = Self.secret
    ) async throws -> String {
        try await TokenAuthority(secret: secret).sign(user: user, ttl: ttl, kind: kind)
    }

    /// Builds the application over the data folder and runs `test` against its router.
    func run<Value>(
        maxUploadBytes: Int = 100 << 20, _ test: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let configuration = ServerConfiguration(
            dataDirectory: self.data.path, port: 0, secret: Self.secret, maxUploadBytes: maxUploadBytes)
        return try await buildApplication(configuration).test(.router, test)
    }

    /// A JPEG of noise made by libvips (small, unless thumbnails are to be measured), its bytes,
    /// and its SHA-256 as `sha256sum`, not photoingest, computes it.
    func photo(width: Int = 64, height: Int = 48) throws -> (bytes: [UInt8], sha256: String) {
        let url = try Fixtures.jpeg(in: self.photos, name: "IMG_0001.jpg", width: width, height: height)
        return (Array(try Data(contentsOf: url)), try Fixtures.sha256sum(url))
    }

    /// Files left under the data folder's `tmp/`: an upload that ended, well or not, leaves none.
    var temporaryFiles: [URL] { TestEnvironment.files(under: self.data.appending(ArchiveLayout.temporary)) }

    /// Every stored original, whatever its event.
    var originals: [URL] { TestEnvironment.files(under: self.data.appending("originals")) }
}

/// An answer: its status, Content-Type, and body read as a JSON object (empty when it is not one).
struct Answer {
    var status: Int
    var contentType: String?
    var json: [String: Any]

    /// The `error` message of an error answer.
    var error: String? { self.json["error"] as? String }
}

extension TestClientProtocol {
    /// One request with `token` as its bearer token (none when nil).
    func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String?, headers: HTTPFields = [:], body: ByteBuffer? = nil
    ) async throws -> Answer {
        var headers = headers
        if let token { headers[.authorization] = "Bearer " + token }
        return try await self.execute(uri: uri, method: method, headers: headers, body: body) { response in
            let json =
                (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any]
            return Answer(status: response.status.code, contentType: response.headers[.contentType], json: json ?? [:])
        }
    }

    /// `POST /api/mobile-upload` with `form`.
    func upload(_ form: MultipartForm, token: String?) async throws -> Answer {
        try await self.send(
            .post, "/api/mobile-upload", token: token, headers: [.contentType: form.contentType], body: form.body)
    }
}

/// A `multipart/form-data` body built by hand, byte for byte as a client sends one.
struct MultipartForm {
    let boundary = "photoingest-test-" + UUID().uuidString
    private var bytes: [UInt8] = []

    var contentType: String { "multipart/form-data; boundary=\(self.boundary)" }
    var body: ByteBuffer { ByteBuffer(bytes: self.bytes + Array("--\(self.boundary)--\r\n".utf8)) }

    /// A form with no parts yet.
    init() {}

    /// The form photoingest sends for one photo: `eventId`, `filename`, `mediaType`, `photos`
    /// (JSON) and the `file` part, without thumbnails (the server then makes its own).
    init(event: String, filename: String, bytes: [UInt8], photoHash: String, fileSize: Int? = nil) throws {
        let description: [String: Any] = [
            "fileName": filename, "photoHash": photoHash, "fileSize": fileSize ?? bytes.count,
            "dateTaken": "2025-09-27T21:39:00Z", "deviceInfo": ["platform": "linux", "autoUpload": false],
        ]
        let photos = try JSONSerialization.data(withJSONObject: [description])
        self.field("eventId", event)
        self.field("filename", filename)
        self.field("mediaType", "image/jpeg")
        self.field("photos", String(decoding: photos, as: UTF8.self))
        self.file("file", filename: filename, type: "image/jpeg", bytes)
    }

    mutating func field(_ name: String, _ value: String) {
        self.part("form-data; name=\"\(name)\"", type: nil, Array(value.utf8))
    }

    /// A file part; its name escaped as libcurl and browsers escape it (WHATWG HTML): `"`, CR
    /// and LF percent-encoded, nothing else touched.
    mutating func file(_ name: String, filename: String, type: String, _ content: [UInt8]) {
        let escaped = filename.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
        self.part("form-data; name=\"\(name)\"; filename=\"\(escaped)\"", type: type, content)
    }

    private mutating func part(_ disposition: String, type: String?, _ content: [UInt8]) {
        self.bytes += Array("--\(self.boundary)\r\nContent-Disposition: \(disposition)\r\n".utf8)
        if let type { self.bytes += Array("Content-Type: \(type)\r\n".utf8) }
        self.bytes += Array("\r\n".utf8) + content + Array("\r\n".utf8)
    }
}

import Foundation
import IngestCore
import IngestTesting
import Testing

/// The reference server as an attack surface, spoken to with curl over loopback.
@Suite struct ReferenceServerTests {
    let server: ReferenceServer
    let event: String
    let photo: URL
    let photos = TemporaryFolder("server-photo")

    init() throws {
        self.server = try ReferenceServer(["--max-upload-mb", "1"])
        self.event = try self.server.addEvent(name: "Party", start: "2025-09-26T00:00:00Z", end: "2025-09-29T00:00:00Z")
        self.photo = try Fixtures.jpeg(in: self.photos, name: "IMG_0001.jpg", width: 320, height: 240)
    }

    struct Answer {
        var status: Int
        var json: [String: Any]
    }

    func curl(_ arguments: [String]) throws -> Answer {
        let result = try runProgram("curl", ["-s", "-H", "Expect:", "-w", "\n%{http_code}"] + arguments)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        let body = lines.dropLast().joined(separator: "\n")
        return Answer(status: status, json: (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:])
    }

    func get(_ path: String, token: String?) throws -> Answer {
        try self.curl((token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []) + [self.server.url + path])
    }

    /// A form as photoingest sends it; `fields` replace or add parts.
    func upload(token: String, file: URL? = nil, hash: String? = nil, fields: [String: String] = [:]) throws -> Answer {
        let file = file ?? self.photo
        let claimed = try hash ?? "sha256:" + Fixtures.sha256sum(file)
        var form = [
            "eventId": self.event, "filename": file.lastPathComponent, "mediaType": "image/jpeg",
            "photos": "[{\"fileName\":\"\(file.lastPathComponent)\",\"photoHash\":\"\(claimed)\",\"dateTaken\":\"2025-09-27T12:00:00Z\"}]",
        ]
        for (key, value) in fields { form[key] = value }
        let parts = form.sorted { $0.key < $1.key }.flatMap { ["--form-string", "\($0.key)=\($0.value)"] }
        return try self.curl(
            ["-H", "Authorization: Bearer \(token)"] + parts + ["-F", "file=@\(file.path);type=image/jpeg", self.server.url + "/api/mobile-upload"])
    }

    var stored: Int { (try? self.server.sql("SELECT count(*) FROM event_photo")).flatMap { Int($0) } ?? -1 }

    @Test("Missing, malformed, wrongly signed, expired and alg:none tokens are refused with 401")
    func badTokensAre401() throws {
        func base64url(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let header = base64url(#"{"alg":"none","typ":"JWT"}"#)
        let payload = base64url(#"{"sub":"alice","exp":4102444800}"#)
        let unsigned = "\(header).\(payload)."
        let tokens: [String?] = [
            nil, "garbage", unsigned, try self.server.token(secret: String(repeating: "z", count: 40)),
            try self.server.token(ttl: -10),
        ]
        for token in tokens {
            let answer = try self.get("/api/getUserEventsWithAnalytics", token: token)
            #expect(answer.status == 401, "\(token ?? "no token")")
            #expect(answer.json["success"] as? Bool == false)
        }
        #expect(try self.upload(token: unsigned).status == 401)
        #expect(self.stored == 0)
    }

    @Test("A user who is not a participant can neither list nor upload to the event; the wrong kind is refused")
    func participantsOnly() throws {
        let mallory = try self.server.token(user: "mallory")
        #expect(try self.get("/api/events/\(self.event)/uploaded-photos", token: mallory).status == 403)
        #expect(try self.get("/functions/v1/api-events-uploaded-photos/\(self.event)", token: mallory).status == 403)
        #expect(try self.upload(token: mallory).status == 403)
        #expect((try self.get("/api/getUserEventsWithAnalytics", token: mallory).json["events"] as? [Any])?.isEmpty == true)
        #expect(try self.get("/api/getUserEventsWithAnalytics", token: self.server.token(kind: "upload")).status == 403)
        #expect(try self.upload(token: self.server.token(kind: "access")).status == 403)
        #expect(self.stored == 0)
    }

    @Test("An upload is stored once, verified; a second is a 409 duplicate; a lying photoHash is refused")
    func verifiedAndDeduplicated() throws {
        let token = try self.server.token()
        let lying = try self.upload(token: token, hash: "sha256:" + String(repeating: "0", count: 64))
        #expect(lying.status == 400)
        #expect(self.stored == 0)
        let first = try self.upload(token: token)
        #expect(first.status == 200)
        #expect((first.json["photo"] as? [String: Any])?["hash"] as? String == "sha256:" + (try Fixtures.sha256sum(self.photo)))
        let second = try self.upload(token: token)
        #expect(second.status == 409)
        #expect(second.json["duplicate"] as? Bool == true)
        #expect(self.stored == 1)
        // Both hash routes list it, in their own shapes.
        let web = try self.get("/api/events/\(self.event)/uploaded-photos", token: token)
        #expect((web.json["uploadedHashes"] as? [String])?.first?.hasPrefix(try Fixtures.sha256sum(self.photo) + "_") == true)
        let functions = try self.get("/functions/v1/api-events-uploaded-photos/\(self.event)", token: token)
        #expect(((functions.json["photos"] as? [[String: Any]])?.first?["filename"] as? String) == "IMG_0001.jpg")
    }

    @Test("Names like ../../etc/passwd never leave the data folder")
    func traversalNames() throws {
        let token = try self.server.token()
        let answer = try self.upload(token: token, fields: ["filename": "../../../../etc/passwd"])
        #expect(answer.status == 200)
        let everything = TestEnvironment.files(under: self.server.data.url)
        #expect(everything.allSatisfy { $0.path.hasPrefix(self.server.data.path) })
        #expect(!everything.contains { $0.lastPathComponent == "passwd" })
        #expect(try self.server.sql("SELECT filename FROM event_photo") == "../../../../etc/passwd")
    }

    @Test("Oversized bodies get 413 and malformed forms 400, and nothing is stored")
    func badBodies() throws {
        let token = try self.server.token()
        let big = self.photos.appending("big.jpg")
        var bytes = Array(try Data(contentsOf: self.photo))
        bytes += [UInt8](repeating: 0xAB, count: 2 << 20)
        try Data(bytes).write(to: big)
        #expect(try self.upload(token: token, file: big).status == 413)
        let garbage = try self.curl(
            ["-H", "Authorization: Bearer \(token)", "-H", "Content-Type: multipart/form-data; boundary=xyz", "--data-binary",
             "--xyz\r\nContent-Disposition: form-data\r\n\r\nno end", self.server.url + "/api/mobile-upload"])
        #expect(garbage.status == 400)
        let notMultipart = try self.curl(["-H", "Authorization: Bearer \(token)", "-d", "a=b", self.server.url + "/api/mobile-upload"])
        #expect(notMultipart.status == 400)
        let noPhotos = try self.upload(token: token, fields: ["photos": "not json"])
        #expect(noPhotos.status == 400)
        #expect(self.stored == 0)
        #expect(TestEnvironment.files(under: self.server.data.appending("tmp")).isEmpty)
    }
}

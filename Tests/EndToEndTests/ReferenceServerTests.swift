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
        return Answer(
            status: status, json: (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:])
    }

    func get(_ path: String, token: String?, on server: ReferenceServer? = nil) throws -> Answer {
        try self.curl(
            (token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []) + [(server ?? self.server).url + path])
    }

    /// A form as photoingest sends it; `fields` replace or add parts.
    func upload(token: String, file: URL? = nil, hash: String? = nil, fields: [String: String] = [:]) throws -> Answer {
        let file = file ?? self.photo
        let claimed = try hash ?? "sha256:" + Fixtures.sha256sum(file)
        var form = [
            "eventId": self.event, "filename": file.lastPathComponent, "mediaType": "image/jpeg",
            "photos":
                "[{\"fileName\":\"\(file.lastPathComponent)\",\"photoHash\":\"\(claimed)\",\"dateTaken\":\"2025-09-27T12:00:00Z\"}]",
        ]
        for (key, value) in fields { form[key] = value }
        let parts = form.sorted { $0.key < $1.key }.flatMap { ["--form-string", "\($0.key)=\($0.value)"] }
        return try self.curl(
            ["-H", "Authorization: Bearer \(token)"] + parts + [
                "-F", "file=@\(file.path);type=image/jpeg", self.server.url + "/api/mobile-upload",
            ])
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
        #expect(
            (try self.get("/api/getUserEventsWithAnalytics", token: mallory).json["events"] as? [Any])?.isEmpty == true)
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
        #expect(
            (first.json["photo"] as? [String: Any])?["hash"] as? String == "sha256:"
                + (try Fixtures.sha256sum(self.photo)))
        let second = try self.upload(token: token)
        #expect(second.status == 409)
        #expect(second.json["duplicate"] as? Bool == true)
        #expect(self.stored == 1)
        // Both hash routes list it, in their own shapes.
        let web = try self.get("/api/events/\(self.event)/uploaded-photos", token: token)
        #expect(
            (web.json["uploadedHashes"] as? [String])?.first?.hasPrefix(try Fixtures.sha256sum(self.photo) + "_")
                == true)
        let functions = try self.get("/functions/v1/api-events-uploaded-photos/\(self.event)", token: token)
        #expect(((functions.json["photos"] as? [[String: Any]])?.first?["filename"] as? String) == "IMG_0001.jpg")
    }

    @Test(
        "Upload names that climb out (../../x, /abs/x, ..\\x, NUL, line breaks) never create or touch a file outside the data folder"
    )
    func traversalNames() throws {
        // The data folder sits three levels down a tree of its own, with a canary on each level;
        // more canaries in /tmp, whose paths the names aim at too.
        let tree = TemporaryFolder("traversal")
        let data = tree.url.appendingPathComponent("a/b/data")
        let server = try ReferenceServer(data: TemporaryFolder(at: data))
        let event = try server.addEvent(name: "Party", start: "2025-09-26T00:00:00Z", end: "2025-09-29T00:00:00Z")
        let aside = TemporaryFolder("canary")
        let tmpCanary = URL(fileURLWithPath: "/tmp/photoingest-canary-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: tmpCanary) }
        for folder in [
            tree.url, tree.url.appendingPathComponent("a"), tree.url.appendingPathComponent("a/b"), aside.url,
        ] {
            try Data("canary\n".utf8).write(to: folder.appendingPathComponent("x"))
        }
        try Data("canary\n".utf8).write(to: tmpCanary)
        let watched = [tree.url, aside.url, tmpCanary]
        let before = try watched.map { try Self.snapshot($0, excluding: data) }
        let tmpBefore = Set(try FileManager.default.contentsOfDirectory(atPath: "/tmp"))

        let names = [
            "../../x", "../../../../../../../../x", "/abs/x", aside.path + "/x", tmpCanary.path, "..\\..\\x", "..\\x",
            "x\u{0}y", "../../x\u{0}.jpg", "a\nb", "../\r\n../x", "..\r\nContent-Type: text/plain", ".", "..", "",
            String(repeating: "../", count: 40) + String(tmpCanary.path.dropFirst()), "originals/../../x", "~/x",
            "%2e%2e%2fx",
        ]
        let token = try server.token(kind: "upload")
        var statuses: [Int] = []
        for (index, name) in names.enumerated() {
            // A photo of its own for each name: a repeat of one would stop at "already held".
            let photo = try Fixtures.jpeg(in: self.photos, name: "photo-\(index).jpg", width: 40, height: 30)
            statuses.append(try self.rawUpload(server, token: token, event: event, photo: photo, name: name))
        }
        #expect(
            statuses.allSatisfy { $0 == 200 || $0 == 400 },
            "\(zip(names, statuses).map { "\($0.0.debugDescription): \($0.1)" })")
        #expect(statuses.contains(200), "no upload got through: the names were never put to the store")

        let after = try watched.map { try Self.snapshot($0, excluding: data) }
        for (folder, (old, new)) in zip(watched, zip(before, after)) {
            #expect(
                old == new,
                "\(folder.path) changed: \(Set(old.keys).symmetricDifference(new.keys)), \(old.filter { new[$0.key] != $0.value }.keys)"
            )
        }
        let tmpNew = Set(try FileManager.default.contentsOfDirectory(atPath: "/tmp")).subtracting(tmpBefore)
        #expect(!tmpNew.contains { $0 == "x" || $0 == "abs" || $0.hasPrefix("x\u{0}") }, "\(tmpNew)")
        #expect(!FileManager.default.fileExists(atPath: "/abs"))
        // Everything the server wrote is under its data folder, named by hash.
        for file in TestEnvironment.files(under: data) {
            let name = file.lastPathComponent
            let byHash =
                name.prefix(64).allSatisfy { "0123456789abcdef".contains($0) } && name.dropFirst(64).first == "."
            #expect(byHash || name.hasPrefix("index.sqlite"), "\(file.path)")
        }
        #expect(try server.sql("SELECT count(*) FROM event_photo") == "\(statuses.filter { $0 == 200 }.count)")
        #expect(
            try self.get("/api/getUserEventsWithAnalytics", token: server.token(), on: server).status == 200,
            "the server stopped answering")
    }

    /// Every file and folder under `root` (or `root` itself, a file): its bytes and modification time.
    static func snapshot(_ root: URL, excluding: URL) throws -> [String: String] {
        var entries: [String: String] = [:]
        func describe(_ url: URL) throws {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            let kind = attributes[.type] as? FileAttributeType
            let content =
                kind == .typeRegular ? (try Data(contentsOf: url)).base64EncodedString() : "\(kind?.rawValue ?? "?")"
            entries[url.path] = "\(modified) \(content)"
        }
        try describe(root)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            return entries
        }
        while let url = enumerator.nextObject() as? URL {
            if url.standardizedFileURL.path.hasPrefix(excluding.standardizedFileURL.path) {
                enumerator.skipDescendants()
                continue
            }
            try describe(url)
        }
        // The data folder's parent changes when the server writes into data/: compare its entries, not its time.
        entries[excluding.deletingLastPathComponent().path] = nil
        return entries
    }

    /// Posts an upload form built byte by byte, so that names may hold NUL and line breaks, both
    /// as the `filename` field and as the file part's own file name. Returns the status.
    func rawUpload(_ server: ReferenceServer, token: String, event: String, photo: URL, name: String) throws -> Int {
        let boundary = "photoingest-\(UUID().uuidString)"
        let bytes = try Data(contentsOf: photo)
        let hash = try Fixtures.sha256sum(photo)
        let photos = try JSONSerialization.data(withJSONObject: [
            [
                "fileName": name, "photoHash": "sha256:" + hash, "dateTaken": "2025-09-27T12:00:00Z",
                "fileSize": bytes.count,
            ]
        ])
        var body = Data()
        func field(_ fieldName: String, _ value: Data) {
            body +=
                Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(fieldName)\"\r\n\r\n".utf8) + value
                + Data("\r\n".utf8)
        }
        field("eventId", Data(event.utf8))
        field("filename", Data(name.utf8))
        field("mediaType", Data("image/jpeg".utf8))
        field("photos", photos)
        body +=
            Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"".utf8) + Data(name.utf8)
            + Data("\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8) + bytes + Data("\r\n--\(boundary)--\r\n".utf8)
        let file = self.photos.appending("form-\(UUID().uuidString.prefix(6))")
        try body.write(to: file)
        let answer = try self.curl([
            "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: multipart/form-data; boundary=\(boundary)",
            "--data-binary", "@\(file.path)", server.url + "/api/mobile-upload",
        ])
        return answer.status
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
            [
                "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: multipart/form-data; boundary=xyz",
                "--data-binary",
                "--xyz\r\nContent-Disposition: form-data\r\n\r\nno end", self.server.url + "/api/mobile-upload",
            ])
        #expect(garbage.status == 400)
        let notMultipart = try self.curl([
            "-H", "Authorization: Bearer \(token)", "-d", "a=b", self.server.url + "/api/mobile-upload",
        ])
        #expect(notMultipart.status == 400)
        let noPhotos = try self.upload(token: token, fields: ["photos": "not json"])
        #expect(noPhotos.status == 400)
        #expect(self.stored == 0)
        #expect(TestEnvironment.files(under: self.server.data.appending("tmp")).isEmpty)
    }

    @Test(
        "A body far over --max-upload-mb is refused with 413 as it streams: the server's memory does not grow with it")
    func oversizedBodyIsNeverHeld() throws {
        let token = try self.server.token()
        // Warm the server up with a real upload first, so that its peak is its working size.
        #expect(try self.upload(token: token).status == 200)
        let peakBefore = try Self.peakResidentKilobytes(self.server.processIdentifier)
        // 256 MB of a file part, chunked: no Content-Length for the server to refuse it by.
        let head = "--xyz\\r\\nContent-Disposition: form-data; name=\"file\"; filename=\"big.jpg\"\\r\\n\\r\\n"
        let send = try runProgram(
            "/bin/sh",
            [
                "-c",
                "{ printf '%b' '\(head)'; head -c 268435456 /dev/zero; } | curl -s -o /dev/null -w '%{http_code}' "
                    + "-H 'Authorization: Bearer \(token)' -H 'Content-Type: multipart/form-data; boundary=xyz' "
                    + "-H 'Transfer-Encoding: chunked' -X POST -T - \(self.server.url)/api/mobile-upload",
            ])
        // curl may see the connection closed before it has sent everything; if it saw an answer, it is 413.
        #expect(send.stdout == "413" || send.stdout == "000", "curl: \(send.stdout) \(send.stderr)")
        let peakAfter = try Self.peakResidentKilobytes(self.server.processIdentifier)
        let grewMB = (peakAfter - peakBefore) / 1_024
        #expect(grewMB < 64, "the server's peak resident memory grew by \(grewMB) MB for a refused 256 MB body")
        #expect(self.stored == 1)
        #expect(TestEnvironment.files(under: self.server.data.appending("tmp")).isEmpty)
        #expect(
            try self.get("/api/getUserEventsWithAnalytics", token: token).status == 200, "the server stopped answering")
        ReliabilityFigure.record(
            "413 while streaming",
            [
                "bodyMB": 256, "limitMB": 1, "serverPeakBeforeMB": peakBefore / 1_024,
                "serverPeakAfterMB": peakAfter / 1_024,
            ])
    }

    /// A process's peak resident memory (VmHWM), in kilobytes.
    static func peakResidentKilobytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

import Foundation
import Hummingbird
import HummingbirdTesting
import IngestCore
import Testing

/// Who may ask what: every route wants a bearer token signed with the server's secret, unexpired,
/// and of the kind the route needs.
@Suite struct TokenAuthorityTests {
    let server: ServerHarness

    init() throws {
        self.server = try ServerHarness()
    }

    @Test("No token, garbage, a token signed with another secret, an expired one: 401 with the API's JSON error")
    func refusedTokens() async throws {
        let event = try await self.server.addEvent("Party", participants: ["alice"])
        let refused: [(token: String?, error: String)] = [
            (nil, "missing bearer token"),
            ("garbage", "invalid or expired token"),
            ("a.b.c", "invalid or expired token"),
            (try await self.server.token(secret: String(repeating: "z", count: 40)), "invalid or expired token"),
            (try await self.server.token(ttl: -60), "invalid or expired token"),
        ]
        try await self.server.run { client in
            for (token, error) in refused {
                for uri in ["/api/getUserEventsWithAnalytics", "/api/events/\(event.id)/uploaded-photos"] {
                    let answer = try await client.send(.get, uri, token: token)
                    #expect(answer.status == 401, "\(uri) with \(token ?? "no token")")
                    #expect(answer.contentType == "application/json")
                    #expect(answer.json["success"] as? Bool == false)
                    #expect(answer.error == error)
                }
            }
            // The scheme must be Bearer: Basic credentials are no token at all.
            let basic = try await client.send(
                .get, "/api/getUserEventsWithAnalytics", token: nil, headers: [.authorization: "Basic YWxpY2U6c2VjcmV0"]
            )
            #expect(basic.status == 401)
            #expect(basic.error == "missing bearer token")
        }
    }

    @Test("A valid token is accepted, whatever the case of \"Bearer\"")
    func validToken() async throws {
        let token = try await self.server.token()
        try await self.server.run { client in
            let listed = try await client.send(.get, "/api/getUserEventsWithAnalytics", token: token)
            #expect(listed.status == 200)
            let lowercase = try await client.send(
                .get, "/api/getUserEventsWithAnalytics", token: nil, headers: [.authorization: "bearer " + token])
            #expect(lowercase.status == 200)
        }
    }

    @Test("An upload token cannot read, and an access token cannot upload: 403 naming the kind needed")
    func tokenKinds() async throws {
        let event = try await self.server.addEvent("Party", participants: ["alice"])
        let upload = try await self.server.token(kind: .upload)
        let access = try await self.server.token(kind: .access)
        let photo = try self.server.photo()
        let form = try MultipartForm(
            event: event.id, filename: "IMG_0001.jpg", bytes: photo.bytes, photoHash: "sha256:" + photo.sha256)
        try await self.server.run { client in
            let reading = try await client.send(.get, "/api/getUserEventsWithAnalytics", token: upload)
            #expect(reading.status == 403)
            #expect(reading.error == "this is an upload token; this request needs an access token")
            let uploading = try await client.upload(form, token: access)
            #expect(uploading.status == 403)
            #expect(uploading.error == "this is an access token; this request needs an upload token")
        }
        #expect(try await self.server.archive.photos(inEvent: event.id).isEmpty)
    }
}

import Foundation
import Hummingbird
import HummingbirdTesting
import IngestArchive
import IngestCore
import Testing

/// The query routes: a user's events, what an event already holds (in both shapes the contract
/// knows), and upload progress; each only for the event's participants.
@Suite struct EventsControllerTests {
    let server: ServerHarness

    init() throws {
        self.server = try ServerHarness()
    }

    @Test("Each user sees the events they take part in, oldest window first, with the fields the API names")
    func eventsPerUser() async throws {
        let wedding = try await self.server.addEvent(
            "Wedding", start: "2025-10-04T12:00:00Z", end: "2025-10-05T02:00:00Z", participants: ["alice"])
        let party = try await self.server.addEvent("Birthday Party", participants: ["alice", "bob"])
        let alice = try await self.server.token("alice")
        let bob = try await self.server.token("bob")
        let mallory = try await self.server.token("mallory")
        try await self.server.run { client in
            let forAlice = try await client.send(.get, "/api/getUserEventsWithAnalytics", token: alice)
            #expect(forAlice.status == 200)
            #expect(forAlice.json["success"] as? Bool == true)
            let events = try #require(forAlice.json["events"] as? [[String: Any]])
            #expect(events.map { $0["id"] as? String } == [party.id, wedding.id])
            #expect(forAlice.json["totalEvents"] as? Int == 2)
            let first = try #require(events.first)
            #expect(first["name"] as? String == "Birthday Party")
            #expect(first["start_time"] as? String == "2025-09-27T21:00:00Z")
            #expect(first["end_time"] as? String == "2025-09-28T05:00:00Z")
            #expect(first["user_role"] as? [String] == ["participant"])
            // The window is in the past: not live.
            #expect(first["live"] as? Bool == false)

            let forBob = try await client.send(.get, "/api/getUserEventsWithAnalytics", token: bob)
            #expect((forBob.json["events"] as? [[String: Any]])?.map { $0["id"] as? String } == [party.id])

            let forMallory = try await client.send(.get, "/api/getUserEventsWithAnalytics", token: mallory)
            #expect(forMallory.status == 200)
            #expect((forMallory.json["events"] as? [Any])?.isEmpty == true)
            #expect(forMallory.json["totalEvents"] as? Int == 0)
        }
    }

    @Test("An event whose window holds now is live")
    func liveEvent() async throws {
        let now = Date()
        _ = try await self.server.addEvent(
            "Now", start: RFC3339.format(now.addingTimeInterval(-3_600)),
            end: RFC3339.format(now.addingTimeInterval(3_600)),
            participants: ["alice"])
        let token = try await self.server.token()
        try await self.server.run { client in
            let answer = try await client.send(.get, "/api/getUserEventsWithAnalytics", token: token)
            #expect((answer.json["events"] as? [[String: Any]])?.first?["live"] as? Bool == true)
        }
    }

    @Test("Both hash routes list an uploaded photo, each in its own shape, and an empty event as empty")
    func hashRoutes() async throws {
        let party = try await self.server.addEvent("Party", participants: ["alice"])
        let empty = try await self.server.addEvent("Empty", participants: ["alice"])
        let token = try await self.server.token()
        let photo = try self.server.photo()
        let form = try MultipartForm(
            event: party.id, filename: "IMG_0001.jpg", bytes: photo.bytes, photoHash: "sha256:" + photo.sha256)
        let archive = self.server.archive
        try await self.server.run { client in
            try #require(try await client.upload(form, token: token).status == 200)
            let stored = try #require(try await archive.photos(inEvent: party.id).first)

            let web = try await client.send(.get, "/api/events/\(party.id)/uploaded-photos", token: token)
            #expect(web.status == 200)
            #expect(
                web.json["uploadedHashes"] as? [String] == ["\(photo.sha256)_\(photo.bytes.count)_\(stored.uploadedAt)"]
            )
            #expect(web.json["count"] as? Int == 1)
            #expect(web.json["lastUpdated"] as? String == stored.uploadedAt)

            let functions = try await client.send(
                .get, "/functions/v1/api-events-uploaded-photos/\(party.id)", token: token)
            #expect(functions.status == 200)
            #expect(functions.json["success"] as? Bool == true)
            #expect(functions.json["event_id"] as? String == party.id)
            #expect(functions.json["total_photos"] as? Int == 1)
            let listed = try #require((functions.json["photos"] as? [[String: Any]])?.first)
            #expect(listed["hash"] as? String == "sha256:" + photo.sha256)
            #expect(listed["filename"] as? String == "IMG_0001.jpg")
            #expect(listed["id"] as? String == "photo_\(photo.sha256.prefix(12))")
            #expect(listed["uploaded_at"] as? String == stored.uploadedAt)

            let nothing = try await client.send(.get, "/api/events/\(empty.id)/uploaded-photos", token: token)
            #expect(nothing.json["uploadedHashes"] as? [String] == [])
            #expect(nothing.json["lastUpdated"] is NSNull)
            let nothingEither = try await client.send(
                .get, "/functions/v1/api-events-uploaded-photos/\(empty.id)", token: token)
            #expect((nothingEither.json["photos"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("An event's hashes are for its participants only (403), and an unknown event is 404")
    func hashRoutesAccess() async throws {
        let party = try await self.server.addEvent("Party", participants: ["alice"])
        let mallory = try await self.server.token("mallory")
        let alice = try await self.server.token("alice")
        try await self.server.run { client in
            for uri in [
                "/api/events/\(party.id)/uploaded-photos", "/functions/v1/api-events-uploaded-photos/\(party.id)",
            ] {
                let refused = try await client.send(.get, uri, token: mallory)
                #expect(refused.status == 403)
                #expect(refused.error == "not a participant of this event")
            }
            for uri in [
                "/api/events/no-such-event/uploaded-photos", "/functions/v1/api-events-uploaded-photos/no-such-event",
            ] {
                let missing = try await client.send(.get, uri, token: alice)
                #expect(missing.status == 404)
                #expect(missing.error == "no such event")
            }
        }
    }

    @Test("Upload progress is acknowledged for a JSON object from a participant, refused otherwise")
    func uploadProgress() async throws {
        let party = try await self.server.addEvent("Party", participants: ["alice"])
        let alice = try await self.server.token("alice")
        let mallory = try await self.server.token("mallory")
        let uri = "/api/events/\(party.id)/upload-progress"
        let progress = ByteBuffer(
            string: #"{"photoId":"photo_1","fileName":"IMG_0001.jpg","status":"completed","progress":100}"#)
        try await self.server.run { client in
            let accepted = try await client.send(
                .post, uri, token: alice, headers: [.contentType: "application/json"], body: progress)
            #expect(accepted.status == 200)
            #expect(accepted.json["success"] as? Bool == true)
            let notJSON = try await client.send(.post, uri, token: alice, body: ByteBuffer(string: "progress=100"))
            #expect(notJSON.status == 400)
            let outsider = try await client.send(.post, uri, token: mallory, body: progress)
            #expect(outsider.status == 403)
        }
    }
}

import Foundation
import Hummingbird
import IngestArchive
import IngestCore

/// `GET /api/getUserEventsWithAnalytics`: the events the token's user takes part in.
struct EventsController {
    let archive: Archive
    let tokens: TokenAuthority

    func add(to router: Router<PhotoShareRequestContext>) {
        router.get("/api/getUserEventsWithAnalytics") { request, _ in try await self.list(request) }
    }

    func list(_ request: Request) async throws -> Response {
        let user = try await self.tokens.user(of: request, needing: .access)
        let events = try await self.archive.events(forUser: user)
        return APIResponse.response(APIResponse.EventList(events, now: Date()))
    }
}

/// The hash routes: what an event already holds, in both shapes the contract knows.
struct HashesController {
    let archive: Archive
    let tokens: TokenAuthority

    func add(to router: Router<PhotoShareRequestContext>) {
        // The web host's shape: composite `hex_size_date` strings.
        router.get("/api/events/:eventId/uploaded-photos") { request, context in
            APIResponse.response(APIResponse.UploadedHashes(try await self.photos(request, context)))
        }
        // The functions host's shape: photo objects with `sha256:` hashes.
        router.get("/functions/v1/api-events-uploaded-photos/:eventId") { request, context in
            APIResponse.response(
                APIResponse.UploadedPhotos(
                    try await self.photos(request, context), eventID: context.parameters.get("eventId") ?? ""))
        }
    }

    func photos(_ request: Request, _ context: PhotoShareRequestContext) async throws -> [ArchivedPhoto] {
        let user = try await self.tokens.user(of: request, needing: .access)
        let eventID = context.parameters.get("eventId") ?? ""
        try await EventAccess.check(user: user, event: eventID, archive: self.archive)
        return try await self.archive.photos(inEvent: eventID)
    }
}

/// `POST /api/events/{id}/upload-progress`: informational; checked, then acknowledged.
struct ProgressController {
    let archive: Archive
    let tokens: TokenAuthority

    func add(to router: Router<PhotoShareRequestContext>) {
        router.post("/api/events/:eventId/upload-progress") { request, context in
            let user = try await self.tokens.user(of: request, needing: .access)
            try await EventAccess.check(
                user: user, event: context.parameters.get("eventId") ?? "", archive: self.archive)
            let body = try await request.body.collect(upTo: 64 << 10)
            guard (try? JSONSerialization.jsonObject(with: Data(buffer: body))) is [String: Any] else {
                throw APIError(.badRequest, "the body must be a JSON object")
            }
            return APIResponse.response(APIResponse.Success())
        }
    }
}

enum EventAccess {
    /// 404 for an unknown event, 403 for a user who does not take part in it.
    static func check(user: String, event: String, archive: Archive) async throws {
        guard try await archive.event(id: event) != nil else { throw APIError(.notFound, "no such event") }
        guard try await archive.isParticipant(user, inEvent: event) else {
            throw APIError(.forbidden, "not a participant of this event")
        }
    }
}

import Foundation
import Hummingbird
import IngestArchive
import IngestCore

/// The bodies the reference server answers with, one `Encodable` type per shape the PhotoShare
/// API contract (`shared/spec/photoshare-api.md`) gives, with the contract's field names.
enum APIResponse {
    /// `{"success": true}`, and nothing else to say.
    struct Success: Encodable {
        var success = true
    }

    /// An error: `success: false`, the message, and the fields the contract adds to some.
    struct Failure: Encodable {
        var success = false
        var error: String
        var duplicate: Bool?
        var hash: String?
    }

    /// `GET /api/getUserEventsWithAnalytics`.
    struct EventList: Encodable {
        var success = true
        var events: [Listed]
        var totalEvents: Int
        var eligibleEvents: Int

        struct Listed: Encodable {
            var id: String
            var name: String
            /// RFC 3339; null for an open end.
            var startTime: String?
            var endTime: String?
            var userRole = ["participant"]
            var live: Bool
            var autoUploadEnabled = true

            enum CodingKeys: String, CodingKey {
                case id, name, live
                case startTime = "start_time"
                case endTime = "end_time"
                case userRole = "user_role"
                case autoUploadEnabled = "auto_upload_enabled"
            }

            func encode(to encoder: any Encoder) throws {
                var fields = encoder.container(keyedBy: CodingKeys.self)
                try fields.encode(self.id, forKey: .id)
                try fields.encode(self.name, forKey: .name)
                // The contract writes an open end as null, not as a missing field.
                try fields.encode(self.startTime, forKey: .startTime)
                try fields.encode(self.endTime, forKey: .endTime)
                try fields.encode(self.userRole, forKey: .userRole)
                try fields.encode(self.live, forKey: .live)
                try fields.encode(self.autoUploadEnabled, forKey: .autoUploadEnabled)
            }
        }

        init(_ events: [Event], now: Date) {
            self.events = events.map {
                Listed(
                    id: $0.id, name: $0.name, startTime: $0.window.start.map(RFC3339.format),
                    endTime: $0.window.end.map(RFC3339.format), live: $0.window.contains(now))
            }
            self.totalEvents = events.count
            self.eligibleEvents = events.count
        }
    }

    /// The web host's hash list: composite `hex_size_date` strings.
    struct UploadedHashes: Encodable {
        var uploadedHashes: [String]
        var count: Int
        /// When the last photo came; null for an empty event.
        var lastUpdated: String?

        init(_ photos: [ArchivedPhoto]) {
            self.uploadedHashes = photos.map { "\($0.hash.hex)_\($0.size)_\($0.uploadedAt)" }
            self.count = photos.count
            self.lastUpdated = photos.last?.uploadedAt
        }

        func encode(to encoder: any Encoder) throws {
            var fields = encoder.container(keyedBy: CodingKeys.self)
            try fields.encode(self.uploadedHashes, forKey: .uploadedHashes)
            try fields.encode(self.count, forKey: .count)
            try fields.encode(self.lastUpdated, forKey: .lastUpdated)
        }

        enum CodingKeys: String, CodingKey {
            case uploadedHashes, count, lastUpdated
        }
    }

    /// The functions host's hash list: photo objects with `sha256:` hashes.
    struct UploadedPhotos: Encodable {
        var success = true
        var photos: [Photo]
        var totalPhotos: Int
        var eventID: String

        struct Photo: Encodable {
            var id: String
            var hash: String
            var filename: String
            var uploadedAt: String

            enum CodingKeys: String, CodingKey {
                case id, hash, filename
                case uploadedAt = "uploaded_at"
            }
        }

        enum CodingKeys: String, CodingKey {
            case success, photos
            case totalPhotos = "total_photos"
            case eventID = "event_id"
        }

        init(_ photos: [ArchivedPhoto], eventID: String) {
            self.photos = photos.map {
                Photo(
                    id: "photo_" + $0.hash.hex.prefix(12), hash: $0.hash.prefixed, filename: $0.filename,
                    uploadedAt: $0.uploadedAt)
            }
            self.totalPhotos = photos.count
            self.eventID = eventID
        }
    }

    /// `POST /api/mobile-upload`, stored.
    struct Uploaded: Encodable {
        var success = true
        var photo: Photo
        var message = "Photo uploaded successfully"

        struct Photo: Encodable {
            var id: String
            var filename: String
            var eventId: String
            var uploadedAt: String
            var fileSize: Int
            var hash: String
        }
    }

    /// `body` as a JSON response, keys sorted.
    static func response(
        _ body: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Response {
        let data = (try? CompactJSON.data(body)) ?? Data("{}".utf8)
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

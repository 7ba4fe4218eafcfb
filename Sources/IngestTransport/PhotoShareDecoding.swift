import Foundation
import IngestCore

/// Reads the PhotoShare API's answers tolerantly: field names vary between deployments, and
/// only what the contract requires is required.
enum PhotoShareDecoding {
    /// The events list; an event without `id`, `name`, `start_time` and `end_time` is left out.
    /// Times without a zone designator are UTC.
    static func events(_ body: Data) -> [Event]? {
        try? JSONDecoder().decode(EventList.self, from: body).events
    }

    /// What an answer says beyond its status: that the event holds the photo already, and the
    /// server's own words for an error. Nothing, for a body that is not a JSON object.
    static func answer(_ body: Data) -> Answer {
        (try? JSONDecoder().decode(Answer.self, from: body)) ?? Answer()
    }

    struct Answer: Decodable {
        var duplicate: Bool?
        var error: String?
        var message: String?

        init() {}

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: CodingKeys.self)
            self.duplicate = try? object.decodeIfPresent(Bool.self, forKey: .duplicate)
            self.error = try? object.decodeIfPresent(String.self, forKey: .error)
            self.message = try? object.decodeIfPresent(String.self, forKey: .message)
        }

        enum CodingKeys: String, CodingKey { case duplicate, error, message }
    }

    /// The events list, under `events` or `data`.
    private struct EventList: Decodable {
        var events: [Event]

        enum Keys: String, CodingKey { case events, data }

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: Keys.self)
            let key: Keys = object.contains(.events) ? .events : .data
            self.events = try object.decode([Listed].self, forKey: key).compactMap(\.event)
        }
    }

    /// One listed event: its id a string or a number; nil when a field the contract requires is
    /// missing or not what it should be.
    private struct Listed: Decodable {
        var event: Event?

        enum Keys: String, CodingKey {
            case id, name
            case startTime = "start_time"
            case endTime = "end_time"
        }

        init(from decoder: any Decoder) throws {
            let entry = try decoder.container(keyedBy: Keys.self)
            let id =
                (try? entry.decode(String.self, forKey: .id))
                ?? (try? entry.decode(Int64.self, forKey: .id)).map(String.init)
            guard let id, let name = try? entry.decode(String.self, forKey: .name),
                let start = (try? entry.decode(String.self, forKey: .startTime)).flatMap(RFC3339.parse),
                let end = (try? entry.decode(String.self, forKey: .endTime)).flatMap(RFC3339.parse)
            else { return }
            self.event = Event(id: id, name: name, window: EventWindow(start: start, end: end))
        }
    }

    /// Both shapes of the hash list, every spelling of a hash.
    static func hashes(_ body: Data) -> KnownHashes? {
        guard let list = try? JSONDecoder().decode(HashList.self, from: body), let hashes = list.hashes else {
            return nil
        }
        return KnownHashes(hashes)
    }

    /// The hash route's answer, decoded straight into hashes: a list of 100,000 never becomes
    /// 100,000 strings (or objects) at once.
    private struct HashList: Decodable {
        /// Nil when neither shape is there.
        var hashes: [ContentHash]?

        enum Keys: String, CodingKey { case uploadedHashes, photos }

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: Keys.self)
            if let spellings = try? object.decode([Spelling].self, forKey: .uploadedHashes) {
                self.hashes = spellings.compactMap(\.hash)
            } else if let photos = try? object.decode([Photo].self, forKey: .photos) {
                self.hashes = photos.compactMap(\.hash)
            }
        }
    }

    /// One string of the web shape's list; one that is not a hash is left out.
    private struct Spelling: Decodable {
        var hash: ContentHash?

        init(from decoder: any Decoder) throws {
            self.hash = ContentHash(parsing: try decoder.singleValueContainer().decode(String.self))
        }
    }

    /// One photo of the functions host's shape; only its `hash` is read, and one without it is left out.
    private struct Photo: Decodable {
        var hash: ContentHash?

        enum Keys: String, CodingKey { case hash }

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: Keys.self)
            self.hash = (try? object.decode(String.self, forKey: .hash)).flatMap(ContentHash.init(parsing:))
        }
    }
}

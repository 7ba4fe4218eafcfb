import Foundation
import IngestCore

/// Reads the PhotoShare API's answers tolerantly: field names vary between deployments, and
/// only what the contract requires is required.
enum PhotoShareDecoding {
    /// The events list; an event without `id`, `name`, `start_time` and `end_time` is left out.
    /// Times without a zone designator are UTC.
    static func events(_ body: Data) -> [Event]? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let list = (object["events"] ?? object["data"]) as? [[String: Any]]
        else { return nil }
        return list.compactMap { entry in
            let id = (entry["id"] as? String) ?? (entry["id"] as? NSNumber)?.stringValue
            guard let id, let name = entry["name"] as? String,
                let start = (entry["start_time"] as? String).flatMap(RFC3339.parse),
                let end = (entry["end_time"] as? String).flatMap(RFC3339.parse)
            else { return nil }
            return Event(id: id, name: name, window: EventWindow(start: start, end: end))
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

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
    static func hashes(_ body: Data) -> Set<ContentHash>? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        if let strings = object["uploadedHashes"] as? [String] {
            return Set(strings.compactMap(ContentHash.init(parsing:)))
        }
        if let photos = object["photos"] as? [[String: Any]] {
            return Set(photos.compactMap { ($0["hash"] as? String).flatMap(ContentHash.init(parsing:)) })
        }
        return nil
    }
}

import Foundation
import IngestCore
import SwiftCSV

/// The events of an archive run, read from `--events FILE`: JSON, an array of objects with
/// `name`, `start` and `end`; or CSV with a header naming those columns. Times are RFC 3339 (no
/// zone means UTC); an empty or missing end leaves the window open on that side. Names must be
/// unique: in the archive an event is its name.
enum EventsFile {
    /// The events the file at `path` lists; `origin` names the setting that gave the path.
    static func events(at path: String, origin: String = "--events") throws -> [Event] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("\(origin): cannot read '\(path)'.")
        }
        let text = String(decoding: data, as: UTF8.self)
        let file = "\(origin): '\(path)'"
        let rows =
            text.drop { $0.isWhitespace }.first == "[" ? try Self.jsonRows(text, file) : try Self.csvRows(text, file)
        guard !rows.isEmpty else { throw UsageError("\(file) lists no event.") }
        var seen: Set<String> = []
        return try rows.enumerated().map { index, row in
            let place = "\(origin): entry \(index + 1) of '\(path)'"
            guard let name = row["name"].map({ $0.trimmingCharacters(in: .whitespaces) }), !name.isEmpty else {
                throw UsageError("\(place) has no name.")
            }
            guard seen.insert(name).inserted else {
                throw UsageError("\(place): the name '\(name)' is used twice.")
            }
            func time(_ key: String) throws -> Date? {
                guard let text = row[key]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
                guard let date = RFC3339.windowBound(text, isEnd: key == "end") else {
                    throw UsageError(
                        "\(place) (\(name)): \(key) '\(text)' is not an RFC 3339 time or a date, e.g. 2025-09-27T21:00:00Z or 2025-09-27."
                    )
                }
                return date
            }
            let window = EventWindow(start: try time("start"), end: try time("end"))
            if let start = window.start, let end = window.end, start > end {
                throw UsageError("\(place) (\(name)): start is after end.")
            }
            return Event(id: name, name: name, window: window)
        }
    }

    /// `file` names the file as messages about it do: `--events: 'weekend.json'`.
    private static func jsonRows(_ text: String, _ file: String) throws -> [[String: String]] {
        guard let array = try? JSONDecoder().decode([[String: JSONValue]].self, from: Data(text.utf8)) else {
            throw UsageError("\(file) is not a JSON array of objects with name, start and end.")
        }
        // Text values only, as a CSV's cells are: a number where a time belongs is a missing time.
        return array.map { object in
            object.compactMapValues { value in if case .string(let text) = value { text } else { nil } }
        }
    }

    private static func csvRows(_ text: String, _ file: String) throws -> [[String: String]] {
        let csv: NamedCSV
        do {
            csv = try NamedCSV(string: text, delimiter: .comma, loadColumns: false)
        } catch {
            throw UsageError("\(file) is neither JSON nor CSV: \(error)")
        }
        guard csv.header.map({ $0.trimmingCharacters(in: .whitespaces) }).contains("name") else {
            throw UsageError("\(file) needs a header line naming its columns: name,start,end.")
        }
        return csv.rows.map { row in
            Dictionary(
                row.map { ($0.key.trimmingCharacters(in: .whitespaces), $0.value) },
                uniquingKeysWith: { first, _ in first })
        }
    }
}

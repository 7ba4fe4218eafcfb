import Foundation
import IngestCore
import IngestTransport

/// `photoingest events`: the events a server offers this user, with their windows in UTC and in
/// a zone of the user's.
public struct EventListing {
    let settings: Settings

    public init(settings: Settings) {
        self.settings = settings
    }

    /// One event as `--json` prints it: its window's ends in UTC, null for an open end.
    struct Listed: Encodable {
        var id: String
        var name: String
        var start: String?
        var end: String?

        init(_ event: Event) {
            self.id = event.id
            self.name = event.name
            self.start = event.window.start.map(RFC3339.format)
            self.end = event.window.end.map(RFC3339.format)
        }

        enum CodingKeys: String, CodingKey { case id, name, start, end }

        // An open end is null, not left out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.id, forKey: .id)
            try container.encode(self.name, forKey: .name)
            try container.encode(self.start, forKey: .start)
            try container.encode(self.end, forKey: .end)
        }
    }

    /// The listing, as text lines (a tab-separated table) or as one JSON array.
    ///
    /// - Throws: ``UsageError`` without a server or with settings that cannot reach it,
    ///   ``IngestError`` when the server cannot be asked.
    public func text(json: Bool) async throws -> String {
        guard self.settings.connection.serverURL != nil else {
            throw UsageError("Give --server (or set PHOTOINGEST_SERVER, or server: in the config file).")
        }
        try self.settings.connection.validateServer()
        let zone = self.settings.timezone ?? TimeZone.current
        guard let client = try self.settings.connection.client() else { return "" }
        let events = try await ServerSettings.events(of: client)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(events.map(Listed.init)), as: UTF8.self)
        }
        if events.isEmpty { return "The server lists no events for this user." }
        func local(_ date: Date?) -> String {
            guard let date else { return ".." }
            let offset = zone.secondsFromGMT(for: date)
            return LocalDateTime(date, offsetSeconds: offset).description + UTCOffset.format(offset)
        }
        var lines = ["id\tname\tstart (UTC)\tend (UTC)\tstart (\(zone.name))\tend (\(zone.name))"]
        for event in events {
            let start = event.window.start.map(RFC3339.format) ?? ".."
            let end = event.window.end.map(RFC3339.format) ?? ".."
            lines.append(
                "\(event.id)\t\(event.name)\t\(start)\t\(end)\t\(local(event.window.start))\t\(local(event.window.end))"
            )
        }
        return lines.joined(separator: "\n")
    }
}

import Foundation
import GRDB
import IngestCore

/// A photo as the archive's index lists it for an event.
public struct ArchivedPhoto: Sendable, Equatable {
    public var hash: ContentHash
    public var filename: String
    public var size: Int
    public var uploadedAt: String
}

extension Archive {
    /// Creates an event with a new id and its participants.
    public func addEvent(name: String, window: EventWindow, participants: [String]) async throws -> Event {
        let event = Event(id: UUID().uuidString.lowercased(), name: name, window: window)
        try await self.register(event)
        try await self.index.write { db in
            for user in participants {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO event_participant (event_id, user_id) VALUES (?, ?)",
                    arguments: [event.id, user])
            }
        }
        return event
    }

    /// Every event with its participants, in ``chronological(_:_:)`` order.
    public func events() async throws -> [(event: Event, participants: [String])] {
        let events: [(event: Event, participants: [String])] = try await self.index.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, name, start_time, end_time FROM event")
            return try rows.map { row in
                let participants = try String.fetchAll(
                    db, sql: "SELECT user_id FROM event_participant WHERE event_id = ? ORDER BY user_id",
                    arguments: [row[0] as String])
                return (Self.event(row), participants)
            }
        }
        return events.sorted { Self.chronological($0.event, $1.event) }
    }

    /// Events in the order their windows open (open-ended first), then by name and id: the order
    /// people expect "Event 1 of 2" in, and the same on every listing (creation times taken a
    /// moment apart by separate processes need not be).
    static func chronological(_ a: Event, _ b: Event) -> Bool {
        let (start, other) = (a.window.start ?? .distantPast, b.window.start ?? .distantPast)
        return (start, a.name, a.id) < (other, b.name, b.id)
    }

    /// The events `user` takes part in.
    public func events(forUser user: String) async throws -> [Event] {
        let events = try await self.index.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT e.id, e.name, e.start_time, e.end_time FROM event e
                    JOIN event_participant p ON p.event_id = e.id WHERE p.user_id = ?
                    """, arguments: [user]
            ).map(Self.event)
        }
        return events.sorted(by: Self.chronological)
    }

    public func event(id: String) async throws -> Event? {
        try await self.index.read { db in
            try Row.fetchOne(db, sql: "SELECT id, name, start_time, end_time FROM event WHERE id = ?", arguments: [id])
                .map(Self.event)
        }
    }

    public func isParticipant(_ user: String, inEvent eventID: String) async throws -> Bool {
        try await self.index.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM event_participant WHERE event_id = ? AND user_id = ?",
                arguments: [eventID, user]) ?? false
        }
    }

    /// The photos an event holds, in the order they arrived.
    public func photos(inEvent eventID: String) async throws -> [ArchivedPhoto] {
        try await self.index.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT ep.sha256, ep.filename, p.size, ep.uploaded_at FROM event_photo ep
                    JOIN photo p ON p.sha256 = ep.sha256 WHERE ep.event_id = ? ORDER BY ep.uploaded_at, ep.sha256
                    """, arguments: [eventID]
            ).compactMap { row in
                ContentHash(parsing: row[0] as String).map {
                    ArchivedPhoto(hash: $0, filename: row[1], size: row[2], uploadedAt: row[3])
                }
            }
        }
    }

    static func event(_ row: Row) -> Event {
        let start: String? = row[2]
        let end: String? = row[3]
        return Event(
            id: row[0], name: row[1],
            window: EventWindow(start: start.flatMap(RFC3339.parse), end: end.flatMap(RFC3339.parse)))
    }
}

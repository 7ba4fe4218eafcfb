import Foundation
import GRDB
import IngestCore

/// What `verify` reads of the catalog and writes back: the files given to each event, and the
/// ones the destination turned out not to hold.
extension Catalog {
    /// Every file the catalog holds as given to an event of `destination` (uploaded or stored, or
    /// a duplicate there), by event and path; and those an earlier verify found missing there
    /// that no run has given again since (status failed), so that they are still said missing.
    public func deliveries(destination: String) async throws -> [Delivery] {
        try await self.pool.read { db in
            var deliveries: [Delivery] = []
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT o.path, o.event, o.status, f.sha256 FROM outcome o JOIN file f ON f.path = o.path
                    WHERE o.destination = ? AND f.sha256 IS NOT NULL
                        AND (o.status IN ('uploaded', 'duplicate') OR o.error_code = ?)
                    ORDER BY o.event, o.path
                    """,
                arguments: [destination, IngestError.Code.missingAtDestination.name])
            while let row = try rows.next() {
                guard let hash = ContentHash(parsing: row[3] as String), let status = FileStatus(rawValue: row[2])
                else { continue }
                deliveries.append(Delivery(path: row[0], event: row[1], hash: hash, status: status))
            }
            return deliveries
        }
    }

    /// The events' names as the latest run into `destination` that did each knew them, by id.
    public func eventNames(destination: String) async throws -> [String: String] {
        try await self.pool.read { db in
            var names: [String: String] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT event, event_name FROM run WHERE destination = ? AND event_name IS NOT NULL ORDER BY id",
                arguments: [destination])
            while let row = try rows.next() { names[row[0]] = row[1] }
            return names
        }
    }

    /// Marks deliveries the destination no longer holds as failed, with `reason`, in one
    /// transaction: the next run over their folders finds them not done and sends them again.
    public func markMissing(_ deliveries: [Delivery], destination: String, reason: String) async throws {
        guard !deliveries.isEmpty else { return }
        let now = RFC3339.format(Date())
        try await self.pool.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    UPDATE outcome SET status = 'failed', error_code = ?, reason = ?, updated_at = ?
                    WHERE path = ? AND destination = ? AND event = ?
                    """)
            for delivery in deliveries {
                try statement.execute(arguments: [
                    IngestError.Code.missingAtDestination.name, reason, now, delivery.path, destination, delivery.event,
                ])
            }
        }
    }
}

import Foundation
import GRDB
import IngestCore

extension Catalog {
    /// Notes that `hash`, read from `path`, is being sent to `event` at `destination`, before it
    /// is. The row goes with the photo's outcome (``record(_:run:)``); one left behind means the
    /// run was killed after the send began, and perhaps after the destination took it.
    public func noteSending(_ hash: ContentHash, path: String, event: String, destination: String) async throws {
        let now = RFC3339.format(Date())
        try await self.pool.write { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO sending (destination, event, sha256, path, started_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (destination, event, sha256) DO UPDATE SET path = excluded.path, started_at = excluded.started_at
                    """
            ).execute(arguments: [destination, event, hash.hex, path, now])
        }
    }

    /// Whether a run that did not finish began to send `hash`, read from `path`, to `event` at
    /// `destination`. Another file with the same bytes is a duplicate as before: not the one sent.
    public func wasSending(_ hash: ContentHash, path: String, event: String, destination: String) async throws -> Bool {
        try await self.pool.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM sending WHERE destination = ? AND event = ? AND sha256 = ? AND path = ?)
                    """,
                arguments: [destination, event, hash.hex, path]) ?? false
        }
    }
}

import Foundation
import GRDB
import IngestCore
import IngestDating

extension Catalog {
    /// The runs of the invocation that `run` belongs to, or of the latest invocation when `run`
    /// is nil, one per event in the order they began; empty when there is no such run.
    public func invocation(of run: Int64?) async throws -> [RunRecord] {
        try await self.pool.read { db in
            let invocation: Int64? =
                if let run {
                    try Int64.fetchOne(db, sql: "SELECT invocation FROM run WHERE id = ?", arguments: [run])
                } else {
                    try Int64.fetchOne(db, sql: "SELECT invocation FROM run ORDER BY id DESC LIMIT 1")
                }
            guard let invocation else { return [] }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT id, invocation, started_at, finished_at, destination, event, event_name, summary, shard,
                        clock_notes
                    FROM run WHERE invocation = ? ORDER BY id
                    """, arguments: [invocation]
            ).map(Self.runRecord)
        }
    }

    /// Every run the catalog records, oldest first: one record per event of each invocation.
    public func runs() async throws -> [RunRecord] {
        try await self.pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, invocation, started_at, finished_at, destination, event, event_name, summary, shard,
                        clock_notes
                    FROM run ORDER BY id
                    """
            ).map(Self.runRecord)
        }
    }

    static func runRecord(_ row: Row) -> RunRecord {
        RunRecord(
            id: row[0], invocation: row[1], startedAt: row[2], finishedAt: row[3], destination: row[4], event: row[5],
            eventName: row[6] ?? row[5], summary: row[7], shard: row[8],
            clockNotes: (row[9] as String?).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
                ?? [])
    }

    /// Every outcome recorded for one destination and event by `run` or an earlier run: the event
    /// as it stood after that run, less the files a later run decided again.
    public func outcomes(destination: String, event: String, upTo run: Int64) async throws -> [OutcomeRecord] {
        try await self.pool.read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT o.path, o.status, o.reason, o.window_start, o.run_id, f.sha256, f.media_type, f.capture_time,
                        f.capture_source, f.local_time, f.utc_offset, f.capture_notes, f.assumed_zone,
                        f.capture_zone, o.window_end, f.camera_make, f.camera_model, f.camera_serial, f.clock_offset
                    FROM outcome o JOIN file f ON f.path = o.path
                    WHERE o.destination = ? AND o.event = ? AND o.run_id <= ?
                    """, arguments: [destination, event, run])
            var records: [OutcomeRecord] = []
            while let row = try rows.next() {
                guard let status = FileStatus(rawValue: row[1]) else { continue }
                var capture: CaptureTime?
                if let instant = (row[7] as String?).flatMap(RFC3339.parse),
                    let source = (row[8] as String?).flatMap(CaptureSource.init(rawValue:))
                {
                    capture = Self.capture(
                        instant: instant, source: source, localTime: row[9], offset: row[10], notes: row[11],
                        assumedZone: row[12], zone: row[13], clockOffset: row[18])
                }
                records.append(
                    OutcomeRecord(
                        path: row[0], status: status, reason: row[2], window: Self.window(start: row[3], end: row[14]),
                        sha256: (row[5] as String?).flatMap(ContentHash.init(parsing:)),
                        kind: MediaKind.allCases.first { $0.mediaType == row[6] as String? }, capture: capture,
                        run: row[4], camera: CameraBody(make: row[15], model: row[16], serial: row[17])))
            }
            return records
        }
    }
}

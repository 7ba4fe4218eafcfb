import Foundation
import GRDB
import IngestCore
import IngestDating

/// What earlier runs left in the catalog, read back by a new run: which files each event has
/// done, and what was learned of them.
extension Catalog {
    /// What the catalog knows of `paths` for one destination in each of `events`, in one query
    /// whatever the number of events.
    ///
    /// A nightly re-run asks this of every file it walks, so the answer costs no string per file.
    /// The paths go in as one JSON array and come back as their positions in it. The columns only
    /// some verdicts need (the window of an outside one, the reason of a failure) are read only
    /// for those.
    public func entries(for paths: [String], destination: String, events: [String]) async throws -> CatalogEntries {
        guard !paths.isEmpty, !events.isEmpty else { return CatalogEntries(paths: paths.count, events: events.count) }
        let arguments = StatementArguments([Self.jsonArray(paths), destination] + events)
        return try await self.pool.read { db in
            var found = CatalogEntries(paths: paths.count, events: events.count)
            let statement = try db.cachedStatement(sql: Self.entriesQuery(events: events.count))
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() {
                let path: Int = row[0]
                guard let event: Int = row[1], let status = FileStatus(rawValue: row[5]) else { continue }
                let stamp = FileStamp(
                    size: row[2], modifiedNanoseconds: row[3], inode: UInt64(bitPattern: row[4] as Int64),
                    changedNanoseconds: row[14])
                found[path, event] = CatalogEntry(
                    stamp: stamp, status: status,
                    window: status == .outside ? Self.window(start: row[6], end: row[11]) : nil, reason: row[8],
                    errorCode: row[9], assumedZone: row[7], positionUnused: row[10], clockOffset: row[12],
                    sidecar: row[13])
            }
            return found
        }
    }

    /// The query of ``entries(for:destination:events:)``: `?1` the paths as a JSON array, `?2` the
    /// destination, `?3`… the events.
    static func entriesQuery(events: Int) -> String {
        let parameters = (0..<events).map { "?\($0 + 3)" }
        let eventIndex = parameters.enumerated().map { "WHEN \($0.element) THEN \($0.offset)" }.joined(separator: " ")
        return """
            SELECT p.key, CASE o.event \(eventIndex) END, f.size, f.mtime_ns, f.inode, o.status,
                CASE WHEN o.status = 'outside' THEN o.window_start END,
                CASE WHEN o.status = 'outside' THEN f.assumed_zone END,
                CASE WHEN o.status = 'failed' THEN o.reason END,
                CASE WHEN o.status = 'failed' THEN o.error_code END,
                CASE WHEN o.status = 'outside' THEN f.position_unused ELSE 0 END,
                CASE WHEN o.status = 'outside' THEN o.window_end END,
                CASE WHEN o.status = 'outside' THEN f.clock_offset END, f.sidecar, f.ctime_ns
            FROM json_each(?1) p
            JOIN file f ON f.path = p.value
            JOIN outcome o ON o.path = f.path AND o.destination = ?2
                AND o.event IN (\(parameters.joined(separator: ", ")))
            """
    }

    /// How many files the catalog knows under `folder` (an absolute path, no trailing slash).
    public func fileCount(under folder: String) async throws -> Int {
        // The paths under it sort between "folder/" and "folder0" ("0" follows "/").
        try await self.pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM file WHERE path >= ? AND path < ?",
                arguments: [folder + "/", folder + "0"]
            ) ?? 0
        }
    }

    /// Records the ctime of files whose rows an older photoingest wrote without one, where the row
    /// still has none: from then on an edit in place is seen.
    public func recordChangeTimes(_ times: [(path: String, changedNanoseconds: Int64)]) async throws {
        guard !times.isEmpty else { return }
        try await self.pool.write { db in
            let statement = try db.cachedStatement(
                sql: "UPDATE file SET ctime_ns = ? WHERE path = ? AND ctime_ns IS NULL")
            for time in times { try statement.execute(arguments: [time.changedNanoseconds, time.path]) }
        }
    }

    /// The window whose ends are these instants (seconds since 1970; nil for an open end).
    static func window(start: Double?, end: Double?) -> EventWindow {
        EventWindow(
            start: start.map(Date.init(timeIntervalSince1970:)), end: end.map(Date.init(timeIntervalSince1970:)))
    }

    /// `strings` as a JSON array, for SQLite's `json_each`.
    static func jsonArray(_ strings: [String]) -> String {
        var json = "["
        json.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, string) in strings.enumerated() {
            json += index == 0 ? "\"" : ",\""
            if string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                for scalar in string.unicodeScalars {
                    switch scalar {
                    case "\"": json += "\\\""
                    case "\\": json += "\\\\"
                    case _ where scalar.value < 0x20:
                        let hex = String(scalar.value, radix: 16)
                        json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    default: json.unicodeScalars.append(scalar)
                    }
                }
            } else {
                json += string
            }
            json += "\""
        }
        return json + "]"
    }

    /// What earlier runs learned of the photos among `paths` (hash, kind, capture time), for those
    /// that were read and dated.
    public func facts(for paths: [String]) async throws -> [String: KnownFacts] {
        guard !paths.isEmpty else { return [:] }
        // The failure in the bytes, if some event's outcome is one recorded for the file as the
        // file table has it (not before a later record of the file, which may be of new bytes):
        // found once per file, its code and reason read from the row found.
        let inTheFile = IngestError.Code.inTheFile.map { "'\($0.name)'" }.joined(separator: ", ")
        return try await self.pool.read { db in
            var facts: [String: KnownFacts] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT f.path, f.size, f.mtime_ns, f.inode, f.sha256, f.media_type, f.capture_time,
                        f.capture_source, f.local_time, f.utc_offset, f.capture_notes, f.assumed_zone, f.capture_zone,
                        f.position_unused, broken.error_code, broken.reason, f.camera_make, f.camera_model,
                        f.camera_serial, f.clock_offset, f.sidecar, f.ctime_ns
                    FROM file f
                    LEFT JOIN outcome broken ON broken.rowid = (
                        SELECT o.rowid FROM outcome o
                        WHERE o.path = f.path AND o.status = 'failed' AND o.error_code IN (\(inTheFile))
                            AND o.updated_at >= f.seen_at
                        ORDER BY o.updated_at DESC LIMIT 1)
                    WHERE f.sha256 IS NOT NULL AND f.capture_time IS NOT NULL
                        AND f.path IN (\(databaseQuestionMarks(count: paths.count)))
                    """,
                arguments: StatementArguments(paths))
            while let row = try rows.next() {
                guard let hash = ContentHash(parsing: row[4] as String),
                    let kind = MediaKind.allCases.first(where: { $0.mediaType == row[5] as String? }),
                    let instant = RFC3339.parse(row[6] as String), let source = CaptureSource(rawValue: row[7])
                else { continue }
                let capture = Self.capture(
                    instant: instant, source: source, localTime: row[8], offset: row[9], notes: row[10],
                    assumedZone: row[11], zone: row[12], positionUnused: row[13], clockOffset: row[19])
                let stamp = FileStamp(
                    size: row[1], modifiedNanoseconds: row[2], inode: UInt64(bitPattern: row[3] as Int64),
                    changedNanoseconds: row[21])
                let failure = (row[14] as String?).map { IngestError(IngestError.Code($0), row[15] ?? "failed") }
                facts[row[0]] = KnownFacts(
                    stamp: stamp, sha256: hash, kind: kind, capture: capture, failure: failure,
                    camera: CameraBody(make: row[16], model: row[17], serial: row[18]))
                facts[row[0]]?.sidecar = row[20]
            }
            return facts
        }
    }

    /// A capture time as the file table holds it.
    static func capture(
        instant: Date, source: CaptureSource, localTime: String?, offset: String?, notes: String?, assumedZone: String?,
        zone: String?, positionUnused: Bool = false, clockOffset: Int? = nil
    ) -> CaptureTime {
        let offset = offset.flatMap(UTCOffset.parse)
        // The wall clock (as corrected, when it was) is the instant seen at its offset.
        let local = localTime != nil ? offset.map { LocalDateTime(instant, offsetSeconds: $0) } : nil
        var capture = CaptureTime(
            instant: instant, localTime: local, offsetSeconds: offset, source: source, assumedZone: assumedZone,
            zone: zone, positionUnused: positionUnused, notes: notes.map { $0.components(separatedBy: "; ") } ?? [])
        capture.clockOffset = clockOffset
        return capture
    }
}

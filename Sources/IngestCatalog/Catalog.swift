import Foundation
import GRDB
import IngestCore

/// The local SQLite record of every file each run saw and how it ended: what makes a re-run
/// redo nothing that is done, and a run after a crash finish the job.
///
/// WAL mode, one writer, each batch of records one transaction: a kill -9 loses at most the
/// batch in flight, whose files the next run simply does again.
public final class Catalog: Sendable {
    public let path: String
    let pool: DatabasePool

    /// Opens (or creates) the catalog at `path`.
    ///
    /// - Throws: ``IngestError`` `.catalogUnusable` when the file is not a catalog, is corrupt,
    ///   or was written by a newer photoingest. It is never overwritten.
    public init(path: String) throws(IngestError) {
        self.path = path
        try Self.checkPlace(path)
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                // WAL makes each commit durable against a process crash; NORMAL skips the fsync
                // per commit that only a power loss would need.
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            let migrator = Migrations.migrator
            // Opening a pool writes to the file (GRDB makes sure the WAL is not empty): look at a
            // catalog read-only first, so that one from a newer photoingest is refused untouched.
            if FileManager.default.fileExists(atPath: path) {
                var readOnly = Configuration()
                readOnly.readonly = true
                let queue = try DatabaseQueue(path: path, configuration: readOnly)
                let tables = try queue.read {
                    try Set(String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
                }
                if !tables.isEmpty && !tables.contains("outcome") {
                    try queue.close()
                    let archive = tables.contains("event_photo")
                    throw IngestError(
                        .catalogUnusable,
                        "\(path) is not a photoingest catalog" + (archive ? " but an archive's index" : "")
                            + "; it was left as it is. Give --catalog a file of its own (it is made if missing)")
                }
                let superseded = try queue.read { try migrator.hasBeenSuperseded($0) }
                try queue.close()
                if superseded {
                    throw IngestError(
                        .catalogUnusable,
                        "the catalog \(path) was written by a newer photoingest; upgrade, or pass another --catalog")
                }
            }
            self.pool = try DatabasePool(path: path, configuration: configuration)
            try migrator.migrate(self.pool)
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(
                .catalogUnusable,
                "cannot use the catalog \(path): \(IngestError.describe(error)). It was left as it is; "
                    + "move it aside or pass another --catalog", cause: error)
        }
    }

    /// Opens the catalog at `path` only to read it (a dry run), creating and migrating nothing;
    /// nil when there is none, or when it is of another photoingest (older or newer) and would
    /// need migrating first: then nothing is known to be done.
    public convenience init?(readingAt path: String) throws(IngestError) {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let pool: DatabasePool
        do {
            var configuration = Configuration()
            configuration.readonly = true
            pool = try DatabasePool(path: path, configuration: configuration)
            let current = try pool.read { db in
                try Migrations.migrator.hasCompletedMigrations(db) && !Migrations.migrator.hasBeenSuperseded(db)
            }
            guard current else { return nil }
        } catch {
            throw IngestError(.catalogUnusable, "cannot read the catalog \(path)", because: error)
        }
        self.init(path: path, pool: pool)
    }

    private init(path: String, pool: DatabasePool) {
        self.path = path
        self.pool = pool
    }

    /// Refuses, in words that say why, a catalog that cannot be made: a folder in its place, or a
    /// folder that cannot be written (SQLite writes its journal beside the catalog).
    static func checkPlace(_ path: String) throws(IngestError) {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if exists && isFolder.boolValue {
            throw IngestError(
                .catalogUnusable, "the catalog \(path) is a folder; give --catalog a file (it is made if missing)")
        }
        // The nearest folder that exists is where the catalog, or the folders to it, must be made.
        var folder = (path as NSString).deletingLastPathComponent
        while !FileManager.default.fileExists(atPath: folder) && folder != "/" {
            folder = (folder as NSString).deletingLastPathComponent
        }
        guard access(folder, W_OK | X_OK) != 0 else { return }
        throw IngestError(
            .catalogUnusable,
            "cannot \(exists ? "use" : "create") the catalog \(path): the folder \(folder) is not writable"
                + (exists ? " (SQLite writes its journal beside the catalog)" : "") + "; pass another --catalog")
    }

    /// What the catalog knows of `paths` for one destination in each of `events`, in one query
    /// whatever the number of events.
    ///
    /// A nightly re-run asks this of every file it walks, so the answer costs no string per file:
    /// the paths go in as one JSON array and come back as their positions in it, and the columns
    /// only some verdicts need (the window of an outside one, the reason of a failure) are read
    /// only for those.
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
                    size: row[2], modifiedNanoseconds: row[3], inode: UInt64(bitPattern: row[4] as Int64))
                found[path, event] = CatalogEntry(
                    stamp: stamp, status: status, window: row[6], reason: row[8], errorCode: row[9],
                    assumedZone: row[7],
                    positionUnused: row[10])
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
                CASE WHEN o.status = 'outside' THEN o.window ELSE '' END,
                CASE WHEN o.status = 'outside' THEN f.assumed_zone END,
                CASE WHEN o.status = 'failed' THEN o.reason END,
                CASE WHEN o.status = 'failed' THEN o.error_code END,
                CASE WHEN o.status = 'outside' THEN f.position_unused ELSE 0 END
            FROM json_each(?1) p
            JOIN file f ON f.path = p.value
            JOIN outcome o ON o.path = f.path AND o.destination = ?2
                AND o.event IN (\(parameters.joined(separator: ", ")))
            """
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
    public func facts(for paths: [String]) async throws -> [String: FileFacts] {
        guard !paths.isEmpty else { return [:] }
        return try await self.pool.read { db in
            var facts: [String: FileFacts] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT path, size, mtime_ns, inode, sha256, media_type, capture_time, capture_source,
                        local_time, utc_offset, capture_notes, assumed_zone, capture_zone, position_unused
                    FROM file
                    WHERE sha256 IS NOT NULL AND capture_time IS NOT NULL AND path IN (\(databaseQuestionMarks(count: paths.count)))
                    """,
                arguments: StatementArguments(paths))
            while let row = try rows.next() {
                guard let hash = ContentHash(parsing: row[4] as String),
                    let kind = MediaKind.allCases.first(where: { $0.mediaType == row[5] as String? }),
                    let instant = RFC3339.parse(row[6] as String), let source = CaptureSource(rawValue: row[7])
                else { continue }
                let capture = Self.capture(
                    instant: instant, source: source, localTime: row[8], offset: row[9], notes: row[10],
                    assumedZone: row[11], zone: row[12], positionUnused: row[13])
                let stamp = FileStamp(
                    size: row[1], modifiedNanoseconds: row[2], inode: UInt64(bitPattern: row[3] as Int64))
                facts[row[0]] = FileFacts(stamp: stamp, sha256: hash, kind: kind, capture: capture)
            }
            return facts
        }
    }

    /// A capture time as the file table holds it.
    static func capture(
        instant: Date, source: CaptureSource, localTime: String?, offset: String?, notes: String?, assumedZone: String?,
        zone: String?, positionUnused: Bool = false
    ) -> CaptureTime {
        let offset = offset.flatMap(UTCOffset.parse)
        // The wall clock the camera wrote is the instant seen at its offset.
        let local = localTime != nil ? offset.map { LocalDateTime(instant, offsetSeconds: $0) } : nil
        return CaptureTime(
            instant: instant, localTime: local, offsetSeconds: offset, source: source, assumedZone: assumedZone,
            zone: zone, positionUnused: positionUnused, notes: notes.map { $0.components(separatedBy: "; ") } ?? [])
    }

    /// Starts a run for one event and returns its id. The runs of one invocation over several
    /// events share `invocation`: the id of its first run (nil for the first itself).
    public func beginRun(
        destination: String, event: String, eventName: String? = nil, invocation: Int64? = nil
    ) async throws -> Int64 {
        try await self.pool.write { db in
            try db.execute(
                sql: "INSERT INTO run (started_at, destination, event, event_name) VALUES (?, ?, ?, ?)",
                arguments: [RFC3339.format(Date()), destination, event, eventName ?? event])
            let id = db.lastInsertedRowID
            try db.execute(sql: "UPDATE run SET invocation = ? WHERE id = ?", arguments: [invocation ?? id, id])
            return id
        }
    }

    /// Marks a run finished, with its summary as JSON.
    public func finishRun(_ id: Int64, summary: String) async throws {
        try await self.pool.write { db in
            try db.execute(
                sql: "UPDATE run SET finished_at = ?, summary = ? WHERE id = ?",
                arguments: [RFC3339.format(Date()), summary, id])
        }
    }

    /// Writes a batch of outcomes in one transaction.
    public func record(_ records: [CatalogRecord], run: Int64) async throws {
        guard !records.isEmpty else { return }
        let now = RFC3339.format(Date())
        try await self.pool.write { db in
            let file = try db.cachedStatement(
                sql: """
                    INSERT INTO file (path, size, mtime_ns, inode, sha256, media_type, capture_time,
                        capture_source, local_time, utc_offset, capture_notes, assumed_zone, capture_zone,
                        position_unused, pair_path, pair_reason, seen_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
                        inode = excluded.inode, sha256 = excluded.sha256, media_type = excluded.media_type,
                        capture_time = excluded.capture_time, capture_source = excluded.capture_source,
                        local_time = excluded.local_time, utc_offset = excluded.utc_offset,
                        capture_notes = excluded.capture_notes, assumed_zone = excluded.assumed_zone,
                        capture_zone = excluded.capture_zone, position_unused = excluded.position_unused,
                        pair_path = excluded.pair_path, pair_reason = excluded.pair_reason,
                        seen_at = excluded.seen_at
                    """)
            let outcome = try db.cachedStatement(
                sql: """
                    INSERT INTO outcome (path, destination, event, window, status, reason, error_code, run_id, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(path, destination, event) DO UPDATE SET window = excluded.window,
                        status = excluded.status, reason = excluded.reason, error_code = excluded.error_code,
                        run_id = excluded.run_id, updated_at = excluded.updated_at
                    """)
            for record in records {
                let capture = record.capture
                try file.execute(arguments: [
                    record.path, record.stamp.size, record.stamp.modifiedNanoseconds,
                    Int64(bitPattern: record.stamp.inode), record.sha256?.hex, record.mediaType,
                    capture.map { RFC3339.format($0.instant) }, capture?.source.rawValue,
                    capture?.localTime?.description, capture?.offset,
                    capture.flatMap { $0.notes.isEmpty ? nil : $0.notes.joined(separator: "; ") }, record.assumedZone,
                    capture?.zone, capture?.positionUnused ?? false, record.pair?.path, record.pair?.reason, now,
                ])
                try outcome.execute(arguments: [
                    record.path, record.destination, record.event, record.window, record.status.rawValue,
                    record.reason, record.errorCode, run, now,
                ])
            }
        }
    }

    /// The recorded outcome of every file for a destination and event, for tests and reports.
    public func outcomes(destination: String, event: String) async throws -> [String: FileStatus] {
        try await self.pool.read { db in
            var result: [String: FileStatus] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT path, status FROM outcome WHERE destination = ? AND event = ?",
                arguments: [destination, event])
            while let row = try rows.next() {
                result[row[0]] = FileStatus(rawValue: row[1])
            }
            return result
        }
    }
}

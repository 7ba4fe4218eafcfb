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
    /// The file's pool; for a catalog read only, of an older photoingest, a migrated copy in memory.
    let pool: any DatabaseWriter

    /// Opens (or creates) the catalog at `path`.
    ///
    /// - Throws: ``IngestError`` `.catalogUnusable` when the file is not a catalog, is corrupt,
    ///   or was written by a newer photoingest. It is never overwritten.
    public init(path: String) throws(IngestError) {
        self.path = path
        try Self.checkPlace(path)
        do {
            try FileManager.default.createDirectory(
                atPath: FileSystem.folder(of: path), withIntermediateDirectories: true)
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
            try Self.refuseForeign(path)
            let pool = try DatabasePool(path: path, configuration: configuration)
            try migrator.migrate(pool)
            self.pool = pool
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(
                .catalogUnusable,
                "cannot use the catalog \(path): \(IngestError.describe(error)). It was left as it is; "
                    + "move it aside or pass another --catalog", cause: error)
        }
    }

    /// Refuses, untouched, a file at `path` that is not a catalog, or a catalog a newer photoingest
    /// wrote; a missing file passes.
    private static func refuseForeign(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        var readOnly = Configuration()
        readOnly.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: readOnly)
        defer { try? queue.close() }
        let tables = try queue.read {
            try Set(String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        }
        // GRDB makes its own table before the first migration's transaction: a run killed
        // between the two leaves that table alone, and the catalog is still to be made.
        if !tables.subtracting(["grdb_migrations"]).isEmpty && !tables.contains("outcome") {
            let archive = tables.contains("event_photo")
            throw IngestError(
                .catalogUnusable,
                "\(path) is not a photoingest catalog" + (archive ? " but an archive's index" : "")
                    + "; it was left as it is. Give --catalog a file of its own (it is made if missing)")
        }
        if try queue.read({ try Migrations.migrator.hasBeenSuperseded($0) }) {
            throw IngestError(
                .catalogUnusable,
                "the catalog \(path) was written by a newer photoingest; upgrade, or pass another --catalog")
        }
    }

    /// Opens the catalog at `path` to read it, as `report` and a page drawn again do, writing
    /// nothing to it: a run of an older photoingest may have it open, and would refuse it once
    /// migrated. Such a catalog is read through a migrated copy in memory.
    ///
    /// - Throws: ``IngestError`` `.catalogUnusable` when the file is missing, is no catalog, is
    ///   corrupt, or was written by a newer photoingest.
    public convenience init(readingOnly path: String) throws(IngestError) {
        let reader: any DatabaseWriter
        do {
            guard FileManager.default.fileExists(atPath: path) else {
                throw IngestError(.catalogUnusable, "there is no catalog at \(path)")
            }
            try Self.refuseForeign(path)
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            let file = try DatabasePool(path: path, configuration: configuration)
            if try file.read({ try Migrations.migrator.hasCompletedMigrations($0) }) {
                reader = file
            } else {
                let copy = try DatabaseQueue()
                try file.backup(to: copy)
                try file.close()
                try Migrations.migrator.migrate(copy)
                reader = copy
            }
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(
                .catalogUnusable, "cannot read the catalog \(path): \(IngestError.describe(error))", cause: error)
        }
        self.init(path: path, pool: reader)
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

    /// A catalog held in memory and gone with the object: for tests of a stage or of the whole
    /// pipeline that need no file, with the schema and the behaviour of one on disk.
    public static func inMemory() throws -> Catalog {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue)
        return Catalog(path: ":memory:", pool: queue)
    }

    private init(path: String, pool: any DatabaseWriter) {
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
        // A bare name's folder is the current one ("" has no parent but itself: issue 34's hang).
        var folder = FileSystem.folder(of: path)
        while !FileManager.default.fileExists(atPath: folder) {
            let parent = FileSystem.folder(of: folder)
            guard parent != folder else { break }
            folder = parent
        }
        guard access(folder, W_OK | X_OK) != 0 else { return }
        throw IngestError(
            .catalogUnusable,
            "cannot \(exists ? "use" : "create") the catalog \(path): the folder \(folder) is not writable"
                + (exists ? " (SQLite writes its journal beside the catalog)" : "") + "; pass another --catalog")
    }

    /// Starts a run for one event and returns its id. The runs of one invocation over several
    /// events share `invocation`: the id of its first run (nil for the first itself). `shard` is
    /// the run's part of a sharded import (`3/8`), nil for a whole one.
    public func beginRun(
        destination: String, event: String, eventName: String? = nil, invocation: Int64? = nil, shard: String? = nil
    ) async throws -> Int64 {
        try await self.pool.write { db in
            try db.execute(
                sql: "INSERT INTO run (started_at, destination, event, event_name, shard) VALUES (?, ?, ?, ?, ?)",
                arguments: [RFC3339.format(Date()), destination, event, eventName ?? event, shard])
            let id = db.lastInsertedRowID
            try db.execute(sql: "UPDATE run SET invocation = ? WHERE id = ?", arguments: [invocation ?? id, id])
            return id
        }
    }

    /// Marks a run finished, with its summary as JSON and what it found of its cameras' clocks.
    public func finishRun(_ id: Int64, summary: String, clockNotes: [String] = []) async throws {
        let notes = clockNotes.isEmpty ? nil : CompactJSON.text(clockNotes)
        try await self.pool.write { db in
            try db.execute(
                sql: "UPDATE run SET finished_at = ?, summary = ?, clock_notes = ? WHERE id = ?",
                arguments: [RFC3339.format(Date()), summary, notes, id])
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
                        position_unused, pair_path, pair_reason, camera_make, camera_model, camera_serial,
                        clock_offset, sidecar, seen_at, ctime_ns)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
                        inode = excluded.inode, sha256 = excluded.sha256, media_type = excluded.media_type,
                        capture_time = excluded.capture_time, capture_source = excluded.capture_source,
                        local_time = excluded.local_time, utc_offset = excluded.utc_offset,
                        capture_notes = excluded.capture_notes, assumed_zone = excluded.assumed_zone,
                        capture_zone = excluded.capture_zone, position_unused = excluded.position_unused,
                        pair_path = excluded.pair_path, pair_reason = excluded.pair_reason,
                        camera_make = excluded.camera_make, camera_model = excluded.camera_model,
                        camera_serial = excluded.camera_serial, clock_offset = excluded.clock_offset,
                        sidecar = excluded.sidecar, seen_at = excluded.seen_at, ctime_ns = excluded.ctime_ns
                    """)
            let outcome = try db.cachedStatement(
                sql: """
                    INSERT INTO outcome (path, destination, event, window_start, window_end, status, reason,
                        error_code, run_id, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(path, destination, event) DO UPDATE SET window_start = excluded.window_start,
                        window_end = excluded.window_end,
                        status = excluded.status, reason = excluded.reason, error_code = excluded.error_code,
                        run_id = excluded.run_id, updated_at = excluded.updated_at
                    """)
            let sent = try db.cachedStatement(
                sql: "DELETE FROM sending WHERE destination = ? AND event = ? AND sha256 = ? AND path = ?")
            for record in records {
                // A send cut by a stop may have reached the destination: its note stays for the next
                // run. Only the file's own outcome removes it (another file with these bytes may end
                // as a duplicate while this one is still on its way).
                if let sha256 = record.sha256, record.status != .pending {
                    try sent.execute(arguments: [record.destination, record.event, sha256.hex, record.path])
                }
                let capture = record.capture
                try file.execute(arguments: [
                    record.path, record.stamp.size, record.stamp.modifiedNanoseconds,
                    Int64(bitPattern: record.stamp.inode), record.sha256?.hex, record.mediaType,
                    capture.map { RFC3339.format($0.instant) }, capture?.source.rawValue,
                    capture?.localTime?.description, capture?.offset,
                    capture.flatMap { $0.notes.isEmpty ? nil : $0.notes.joined(separator: "; ") }, record.assumedZone,
                    capture?.zone, capture?.positionUnused ?? false, record.pair?.path, record.pair?.reason,
                    record.camera?.make, record.camera?.model, record.camera?.serial, capture?.clockOffset,
                    record.sidecar, now, record.stamp.changedNanoseconds,
                ])
                try outcome.execute(arguments: [
                    record.path, record.destination, record.event, record.window.start?.timeIntervalSince1970,
                    record.window.end?.timeIntervalSince1970, record.status.rawValue,
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

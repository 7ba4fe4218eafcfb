import Foundation
import GRDB
import IngestCore

/// The catalog's schema, one migration per change; never edit a migration that has shipped.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE file (
                        path TEXT PRIMARY KEY NOT NULL,
                        size INTEGER NOT NULL,
                        mtime_ns INTEGER NOT NULL,
                        inode INTEGER NOT NULL,
                        sha256 TEXT,
                        media_type TEXT,
                        capture_time TEXT,
                        capture_source TEXT,
                        local_time TEXT,
                        utc_offset TEXT,
                        capture_notes TEXT,
                        seen_at TEXT NOT NULL
                    );
                    CREATE TABLE outcome (
                        path TEXT NOT NULL REFERENCES file(path) ON DELETE CASCADE,
                        destination TEXT NOT NULL,
                        event TEXT NOT NULL,
                        window TEXT NOT NULL,
                        status TEXT NOT NULL,
                        reason TEXT,
                        run_id INTEGER NOT NULL,
                        updated_at TEXT NOT NULL,
                        PRIMARY KEY (path, destination, event)
                    );
                    CREATE TABLE run (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        started_at TEXT NOT NULL,
                        finished_at TEXT,
                        destination TEXT NOT NULL,
                        event TEXT NOT NULL,
                        summary TEXT
                    );
                    """)
        }
        // Failures keep their code beside the reason, so that they can be counted by kind.
        migrator.registerMigration("v2-error-code") { db in
            try db.execute(sql: "ALTER TABLE outcome ADD COLUMN error_code TEXT")
        }
        // The zone a capture time was read in when the camera gave none: a run told another zone
        // dates such files again.
        migrator.registerMigration("v3-assumed-zone") { db in
            try db.execute(sql: "ALTER TABLE file ADD COLUMN assumed_zone TEXT")
            // Which zone an older run assumed is unknown: "" matches none, so such files are dated once more.
            try db.execute(sql: "UPDATE file SET assumed_zone = '' WHERE capture_source = 'exif-assumed-zone'")
        }
        // A run over several events is one invocation with a run row per event; the report
        // draws an invocation again, under the events' names (a server's event id is no name).
        migrator.registerMigration("v4-run-invocation") { db in
            try db.execute(sql: "ALTER TABLE run ADD COLUMN invocation INTEGER")
            try db.execute(sql: "ALTER TABLE run ADD COLUMN event_name TEXT")
            try db.execute(sql: "UPDATE run SET invocation = id")
        }
        // A file paired with another (a Live Photo's still and clip, a raw photo and its JPEG).
        migrator.registerMigration("v5-pair") { db in
            try db.execute(sql: "ALTER TABLE file ADD COLUMN pair_path TEXT")
            try db.execute(sql: "ALTER TABLE file ADD COLUMN pair_reason TEXT")
        }
        // The IANA zone that dated the file (the zone at its GPS position, or the assumed one),
        // not only its offset; and whether a GPS position went unused for want of zone
        // boundaries, so that a run that has them dates the file again. Older rows had only the
        // assumed zone to say, and no boundaries: their files are dated once more (the zone
        // matches none), which finds their positions.
        migrator.registerMigration("v6-capture-zone") { db in
            try db.execute(sql: "ALTER TABLE file ADD COLUMN capture_zone TEXT")
            try db.execute(sql: "UPDATE file SET capture_zone = NULLIF(assumed_zone, '')")
            try db.execute(sql: "ALTER TABLE file ADD COLUMN position_unused INTEGER NOT NULL DEFAULT 0")
        }
        // The window an outcome was judged against as its two instants (seconds since 1970, NULL
        // for an open end), not as text to parse back. Every older row's text was written by
        // EventWindow's description; an outside verdict whose window would not parse is dropped,
        // so that its file is judged again rather than against no window at all.
        migrator.registerMigration("v7-window-instants") { db in
            try db.execute(sql: "ALTER TABLE outcome ADD COLUMN window_start REAL")
            try db.execute(sql: "ALTER TABLE outcome ADD COLUMN window_end REAL")
            for text in try String.fetchAll(db, sql: "SELECT DISTINCT \"window\" FROM outcome") {
                guard let window = EventWindow(parsing: text) else {
                    try db.execute(
                        sql: "DELETE FROM outcome WHERE \"window\" = ? AND status = 'outside'", arguments: [text])
                    continue
                }
                try db.execute(
                    sql: "UPDATE outcome SET window_start = ?, window_end = ? WHERE \"window\" = ?",
                    arguments: [window.start?.timeIntervalSince1970, window.end?.timeIntervalSince1970, text])
            }
            try db.execute(sql: "ALTER TABLE outcome DROP COLUMN \"window\"")
        }
        // The body that took each file (make, model, serial), and the seconds a clock offset added
        // to its clock: offsets are a body's, and a run with another one dates the file again.
        // Older rows say nothing of either until their file is read again.
        migrator.registerMigration("v8-camera") { db in
            for column in ["camera_make", "camera_model", "camera_serial"] {
                try db.execute(sql: "ALTER TABLE file ADD COLUMN \(column) TEXT")
            }
            try db.execute(sql: "ALTER TABLE file ADD COLUMN clock_offset INTEGER")
        }
        // The stamp of the XMP sidecar a file was dated with (`size:mtime_ns:inode`): a sidecar
        // changed, added or removed dates its file again. Older rows had none read: NULL, as for
        // a file without one, so a sidecar that was already there is read on the next run.
        migrator.registerMigration("v9-sidecar") { db in
            try db.execute(sql: "ALTER TABLE file ADD COLUMN sidecar TEXT")
        }
        // Which part of a sharded import a run was (`K/N`), so that a report over the shards'
        // catalogs can say which shard has not run. Older runs say nothing: NULL, unsharded.
        migrator.registerMigration("v10-shard") { db in
            try db.execute(sql: "ALTER TABLE run ADD COLUMN shard TEXT")
        }
        // What the run found of its cameras' clocks ("Clock: … looks 1 h 02 min fast …"), a JSON
        // array of lines, so that a page drawn again from the catalog says it beside the cameras'
        // rows as the run's own page did. Older runs: NULL, nothing to say.
        migrator.registerMigration("v11-clock-notes") { db in
            try db.execute(sql: "ALTER TABLE run ADD COLUMN clock_notes TEXT")
        }
        // Each file's ctime beside its mtime: an edit in place that sets the mtime back (exiftool
        // -P) still moves it. Older rows have none (NULL), which matches any: the first run after
        // the upgrade reads none of their files again, and records the ctime it sees for them.
        migrator.registerMigration("v12-ctime") { db in
            try db.execute(sql: "ALTER TABLE file ADD COLUMN ctime_ns INTEGER")
        }
        // A photo on its way to the destination, written before it is sent and removed with its
        // outcome: a run killed in between leaves the row, and the next run, finding the bytes
        // already held, says they were sent before the stop rather than calling them a duplicate.
        migrator.registerMigration("v13-sending") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sending (
                        destination TEXT NOT NULL, event TEXT NOT NULL, sha256 TEXT NOT NULL,
                        path TEXT NOT NULL, started_at TEXT NOT NULL, PRIMARY KEY (destination, event, sha256)
                    ) WITHOUT ROWID
                    """)
        }
        // Folder seals: a folder whose files a re-run found all done, by the digest of its
        // listing. Any write to a row of a file in it deletes its seals: whatever changed (a
        // verify that found a photo missing, a run of another event), a seal never outlives the
        // rows it vouches for. The folder of a path is the path less its last name.
        migrator.registerMigration("v14-folder-seal") { db in
            try db.execute(
                sql: """
                    CREATE TABLE folder_seal (
                        folder TEXT NOT NULL, context TEXT NOT NULL, digest TEXT NOT NULL,
                        PRIMARY KEY (folder, context)
                    ) WITHOUT ROWID
                    """)
            for table in ["file", "outcome"] {
                for (change, rows) in [("INSERT", ["NEW"]), ("UPDATE", ["OLD", "NEW"]), ("DELETE", ["OLD"])] {
                    let folders = rows.map { "rtrim(\($0).path, replace(\($0).path, '/', ''))" }
                    try db.execute(
                        sql: """
                            CREATE TRIGGER \(table)_\(change.lowercased())_breaks_seal AFTER \(change) ON \(table)
                            BEGIN
                                DELETE FROM folder_seal WHERE folder IN (\(folders.joined(separator: ", ")));
                            END
                            """)
                }
            }
        }
        return migrator
    }
}

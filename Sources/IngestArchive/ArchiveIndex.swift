import GRDB

/// The archive's SQLite index: which photos it holds and which event holds which hash.
/// `photoshare-server` serves the same index, so both share these migrations.
enum ArchiveIndex {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE event (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        start_time TEXT,
                        end_time TEXT,
                        created_at TEXT NOT NULL
                    );
                    CREATE TABLE photo (
                        sha256 TEXT PRIMARY KEY NOT NULL,
                        size INTEGER NOT NULL,
                        media_type TEXT NOT NULL,
                        original TEXT NOT NULL,
                        thumbnail_500 TEXT NOT NULL,
                        thumbnail_200 TEXT NOT NULL,
                        stored_at TEXT NOT NULL
                    );
                    CREATE TABLE event_photo (
                        event_id TEXT NOT NULL REFERENCES event(id),
                        sha256 TEXT NOT NULL REFERENCES photo(sha256),
                        filename TEXT NOT NULL,
                        capture_time TEXT,
                        capture_source TEXT,
                        uploaded_at TEXT NOT NULL,
                        PRIMARY KEY (event_id, sha256)
                    );
                    """)
        }
        migrator.registerMigration("v2-participants") { db in
            // Who may see and upload to an event: what photoshare-server checks tokens against.
            try db.execute(
                sql: """
                    CREATE TABLE event_participant (
                        event_id TEXT NOT NULL REFERENCES event(id),
                        user_id TEXT NOT NULL,
                        PRIMARY KEY (event_id, user_id)
                    );
                    """)
        }
        return migrator
    }
}

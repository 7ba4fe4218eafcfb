-- A catalog as photoingest's first schema (v1) wrote it: `sqlite3 catalog.sqlite .dump` of a
-- real run, trimmed to three files. Migrations must carry it forward unchanged in meaning.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES('v1');
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
INSERT INTO file VALUES('/photos/ok.jpg',166643,1795302150546184936,16498990,'23524d98119da42985cd6f2935c57efbaaa108c1a6b02f42ba5e46dedd9a0e66','image/jpeg','2025-09-27T09:00:27Z','exif-offset','2025-09-27T18:00:27','+09:00',NULL,'2026-11-21T23:02:30.720Z');
INSERT INTO file VALUES('/photos/cut.jpg',1432,1795302150546184000,16498991,'0f3e2b1c77a6d7fb8e8f0a5b0d1d1f4a9c3b2e6f5a4d3c2b1a09f8e7d6c5b4a3','image/jpeg',NULL,NULL,NULL,NULL,NULL,'2026-11-21T23:02:30.720Z');
INSERT INTO file VALUES('/photos/notes.txt',14,1795302150546183000,16498992,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-21T23:02:30.720Z');
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
INSERT INTO outcome VALUES('/photos/ok.jpg','archive:/srv/archive','default','../..','uploaded',NULL,1,'2026-11-21T23:02:30.720Z');
INSERT INTO outcome VALUES('/photos/cut.jpg','archive:/srv/archive','default','../..','failed','decoding failed: VipsJpeg: Premature end of input file',1,'2026-11-21T23:02:30.720Z');
INSERT INTO outcome VALUES('/photos/notes.txt','archive:/srv/archive','default','../..','skipped','not a supported image format (JPEG, HEIC/HEIF, AVIF, WebP, PNG, TIFF)',1,'2026-11-21T23:02:30.720Z');
CREATE TABLE run (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    destination TEXT NOT NULL,
    event TEXT NOT NULL,
    summary TEXT
);
INSERT INTO run VALUES(1,'2026-11-21T23:02:30.700Z','2026-11-21T23:02:30.730Z','archive:/srv/archive','default','{"uploaded":1,"failed":1,"skipped":1}');
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('run',1);
COMMIT;

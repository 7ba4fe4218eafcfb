-- A catalog as schema v2 wrote it: `sqlite3 catalog.sqlite .dump` of a real run (paths moved to
-- /photos and /srv/archive): two photos outside the window, one dated by its EXIF offset, one in
-- the zone the run assumed (Asia/Tokyo), and a skipped file. Migrations must carry it forward.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES('v1');
INSERT INTO grdb_migrations VALUES('v2-error-code');
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
INSERT INTO file VALUES('/photos/README.txt',61,1795413519186052924,16253031,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-23T05:58:40.042Z');
INSERT INTO file VALUES('/photos/IMG_0002.jpg',166643,1795413519185911964,16253030,'23524d98119da42985cd6f2935c57efbaaa108c1a6b02f42ba5e46dedd9a0e66','image/jpeg','2025-09-27T09:00:27Z','exif-offset','2025-09-27T18:00:27','+09:00',NULL,'2026-11-23T05:58:40.042Z');
INSERT INTO file VALUES('/photos/noexif.jpg',1721,1795413519685544119,16253033,'7af0f391cb031ae09913c823e077e33bc87bfa381e9ec906e2223711d05f46a9','image/jpeg','2025-09-27T14:30:00Z','exif-assumed-zone','2025-09-27T23:30:00','+09:00',NULL,'2026-11-23T05:58:40.042Z');
CREATE TABLE outcome (
    path TEXT NOT NULL REFERENCES file(path) ON DELETE CASCADE,
    destination TEXT NOT NULL,
    event TEXT NOT NULL,
    window TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    run_id INTEGER NOT NULL,
    updated_at TEXT NOT NULL, error_code TEXT,
    PRIMARY KEY (path, destination, event)
);
INSERT INTO outcome VALUES('/photos/README.txt','archive:/srv/archive','Party','2025-09-27T21:00:00Z/2025-09-28T00:00:00Z','skipped','not a supported image format (JPEG, HEIC/HEIF, AVIF, WebP, PNG, TIFF)',1,'2026-11-23T05:58:40.042Z',NULL);
INSERT INTO outcome VALUES('/photos/IMG_0002.jpg','archive:/srv/archive','Party','2025-09-27T21:00:00Z/2025-09-28T00:00:00Z','outside',NULL,1,'2026-11-23T05:58:40.042Z',NULL);
INSERT INTO outcome VALUES('/photos/noexif.jpg','archive:/srv/archive','Party','2025-09-27T21:00:00Z/2025-09-28T00:00:00Z','outside',NULL,1,'2026-11-23T05:58:40.042Z',NULL);
CREATE TABLE run (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    destination TEXT NOT NULL,
    event TEXT NOT NULL,
    summary TEXT
);
INSERT INTO run VALUES(1,'2026-11-23T05:58:40.028Z','2026-11-23T05:58:40.043Z','archive:/srv/archive','Party','{"bytes":168364,"counts":{"duplicate":0,"failed":0,"outside":2,"skipped":1,"uploaded":0},"destination":"archive:\/srv\/archive","dryRun":false,"event":"Party","files":3,"filesPerSecond":192.8523394563737,"interrupted":false,"nearEdge":0,"seconds":0.015555943,"stages":{"exif":{"count":2,"p50Seconds":0.0002673340883014179,"p95Seconds":0.0008992011061111293,"totalSeconds":0.001131651},"hash":{"count":2,"p50Seconds":7.66082624558859e-06,"p95Seconds":0.00037806749336051184,"totalSeconds":0.00037259},"read":{"count":2,"p50Seconds":5.1535690622376135e-05,"p95Seconds":0.00037806749336051184,"totalSeconds":0.000427461}},"summary":"2 Outside event dates","unchanged":0}');
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('run',1);
COMMIT;

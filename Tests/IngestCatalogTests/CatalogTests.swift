import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestHashing
import IngestTesting
import Testing

@Suite struct CatalogTests {
    let folder = TemporaryFolder("catalog")
    var path: String { self.folder.appending("state/catalog.sqlite").path }
    let stamp = FileStamp(size: 1_234, modifiedNanoseconds: 1_700_000_000_123_456_789, inode: 42)

    func record(_ path: String, _ status: FileStatus, window: EventWindow = EventWindow(), stamp: FileStamp? = nil)
        -> CatalogRecord
    {
        CatalogRecord(
            path: path, stamp: stamp ?? self.stamp, sha256: ContentHasher.hash(Array(path.utf8)),
            mediaType: "image/jpeg",
            capture: CaptureTime(instant: Date(timeIntervalSince1970: 1_759_006_800), source: .exifOffset),
            destination: "archive:/a", event: "default", window: window, status: status,
            reason: status == .failed ? "decoding failed" : nil)
    }

    /// Writes a catalog at `path` from a dump in Fixtures/, as an older photoingest left it.
    func loadFixture(_ name: String) throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/" + name)
        try FileManager.default.createDirectory(
            atPath: (self.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let load = try runProgram("sqlite3", [self.path, ".read \(fixture.path)"])
        try #require(load.status == 0, "\(load.stderr)")
    }

    @Test func remembersOutcomesAcrossOpenings() async throws {
        do {
            let catalog = try Catalog(path: self.path)
            let run = try await catalog.beginRun(destination: "archive:/a", event: "default")
            try await catalog.record([self.record("/p/a.jpg", .uploaded), self.record("/p/b.jpg", .failed)], run: run)
            try await catalog.finishRun(run, summary: "{}")
        }
        let reopened = try Catalog(path: self.path)
        let entries = try await reopened.entries(
            for: ["/p/a.jpg", "/p/b.jpg", "/p/c.jpg"], destination: "archive:/a", events: ["default", "party"])
        // Another event knows nothing of them, nor does another destination.
        #expect(entries.found == 2)
        #expect((0..<3).allSatisfy { entries[$0, 1] == nil })
        #expect(entries[0, 0]?.status == .uploaded)
        #expect(entries[0, 0]?.stamp == self.stamp)
        #expect(entries[1, 0]?.status == .failed)
        #expect(entries[1, 0]?.reason == "decoding failed")
        #expect(entries[2, 0] == nil)
        #expect(
            try await reopened.entries(for: ["/p/a.jpg"], destination: "archive:/b", events: ["default"]).found == 0)
    }

    @Test func aLaterOutcomeReplacesTheEarlierOne() async throws {
        let catalog = try Catalog(path: self.path)
        let first = try await catalog.beginRun(destination: "archive:/a", event: "default")
        try await catalog.record([self.record("/p/a.jpg", .failed)], run: first)
        let second = try await catalog.beginRun(destination: "archive:/a", event: "default")
        try await catalog.record([self.record("/p/a.jpg", .uploaded)], run: second)
        #expect(try await catalog.outcomes(destination: "archive:/a", event: "default") == ["/p/a.jpg": .uploaded])
    }

    @Test func whatCountsAsDone() {
        let from2025 = EventWindow(start: RFC3339.parse("2025-01-01T00:00:00Z"))
        let from2024 = EventWindow(start: RFC3339.parse("2024-01-01T00:00:00Z"))
        let done = CatalogEntry(stamp: self.stamp, status: .uploaded, window: EventWindow())
        #expect(done.isDone(stamp: self.stamp, window: EventWindow(), zone: "UTC"))
        var touched = self.stamp
        touched.modifiedNanoseconds += 1
        #expect(!done.isDone(stamp: touched, window: EventWindow(), zone: "UTC"))
        var replaced = self.stamp
        replaced.inode += 1
        #expect(!done.isDone(stamp: replaced, window: EventWindow(), zone: "UTC"))
        #expect(
            !CatalogEntry(stamp: self.stamp, status: .failed, window: EventWindow()).isDone(
                stamp: self.stamp, window: EventWindow(), zone: "UTC"))
        // Outside is final only for the window it was judged against.
        let outside = CatalogEntry(stamp: self.stamp, status: .outside, window: from2025)
        #expect(outside.isDone(stamp: self.stamp, window: from2025, zone: "UTC"))
        #expect(!outside.isDone(stamp: self.stamp, window: from2024, zone: "UTC"))
        // ...and, when its time was read in an assumed zone, for that zone; a stored photo stays stored.
        let window = from2025
        let assumed = CatalogEntry(stamp: self.stamp, status: .outside, window: window, assumedZone: "Asia/Tokyo")
        #expect(assumed.isDone(stamp: self.stamp, window: window, zone: "Asia/Tokyo"))
        #expect(!assumed.isDone(stamp: self.stamp, window: window, zone: "America/Los_Angeles"))
        let stored = CatalogEntry(stamp: self.stamp, status: .uploaded, window: window, assumedZone: "Asia/Tokyo")
        #expect(stored.isDone(stamp: self.stamp, window: window, zone: "America/Los_Angeles"))
    }

    @Test("A catalog whose first run was killed before its first migration committed is made, not refused")
    func aCatalogKilledBeforeItsFirstMigrationIsMade() async throws {
        // What GRDB writes before the first migration's transaction, and all a kill -9 there leaves.
        try FileManager.default.createDirectory(
            atPath: (self.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try runProgram(
            "sqlite3", [self.path, "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)"])
        let catalog = try Catalog(path: self.path)
        let run = try await catalog.beginRun(destination: "archive:/a", event: "default")
        try await catalog.record([self.record("/p/a.jpg", .uploaded)], run: run)
        #expect(try await catalog.outcomes(destination: "archive:/a", event: "default") == ["/p/a.jpg": .uploaded])
    }

    @Test func aFileThatIsNotACatalogIsRefusedAndLeftAlone() throws {
        let path = self.folder.appending("notes.sqlite").path
        let text = Data(String(repeating: "my precious notes\n", count: 500).utf8)
        try text.write(to: URL(fileURLWithPath: path))
        #expect(throws: IngestError.self) { try Catalog(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
    }

    @Test func aCatalogFromANewerPhotoingestIsRefused() async throws {
        do {
            let catalog = try Catalog(path: self.path)
            _ = try await catalog.beginRun(destination: "d", event: "e")
        }
        try runProgram(
            "sqlite3", [self.path, "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')"])
        // Fold the WAL into the file, so that the bytes compared are the whole catalog.
        try runProgram("sqlite3", [self.path, "PRAGMA wal_checkpoint(TRUNCATE)"])
        let url = URL(fileURLWithPath: self.path)
        let before = try Data(contentsOf: url)
        let error = #expect(throws: IngestError.self) { try Catalog(path: self.path) }
        #expect(error?.code == .catalogUnusable)
        #expect(error?.message.contains("newer") == true)
        #expect(try Data(contentsOf: url) == before, "a catalog from a newer photoingest was rewritten")
        let wal = URL(fileURLWithPath: self.path + "-wal")
        let walBytes = (try? Data(contentsOf: wal)) ?? Data()
        #expect(walBytes.isEmpty, "opening it wrote \(walBytes.count) bytes of WAL")
    }

    @Test("A catalog written by the first schema (v1) is migrated in place: what it knew still holds")
    func migratesAnOlderCatalog() async throws {
        try self.loadFixture("catalog-v1.sql")

        let catalog = try Catalog(path: self.path)
        let okStamp = FileStamp(size: 166_643, modifiedNanoseconds: 1_795_302_150_546_184_936, inode: 16_498_990)
        let entries = try await catalog.entries(
            for: ["/photos/ok.jpg", "/photos/cut.jpg", "/photos/notes.txt"], destination: "archive:/srv/archive",
            events: ["default"])
        #expect(entries.found == 3)
        #expect(entries[0, 0]?.isDone(stamp: okStamp, window: EventWindow(), zone: "UTC") == true)
        #expect(entries[1, 0]?.status == .failed)
        #expect(entries[1, 0]?.reason?.contains("Premature end") == true)
        #expect(entries[2, 0]?.status == .skipped)

        // The new column is there and written.
        let run = try await catalog.beginRun(destination: "archive:/srv/archive", event: "default")
        var failed = self.record("/photos/cut.jpg", .failed)
        failed.destination = "archive:/srv/archive"
        failed.errorCode = "decodeFailed"
        try await catalog.record([failed], run: run)
        let code = try runProgram(
            "sqlite3", [self.path, "SELECT error_code FROM outcome WHERE path = '/photos/cut.jpg'"])
        #expect(code.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "decodeFailed")
        let migrations = try runProgram(
            "sqlite3", [self.path, "SELECT identifier FROM grdb_migrations ORDER BY rowid"])
        #expect(
            migrations.stdout.split(separator: "\n") == [
                "v1", "v2-error-code", "v3-assumed-zone", "v4-run-invocation", "v5-pair", "v6-capture-zone",
                "v7-window-instants", "v8-camera", "v9-sidecar", "v10-shard", "v11-clock-notes", "v12-ctime",
                "v13-sending", "v14-folder-seal",
            ])
        // Older runs are invocations of their own, under their event's id: the report can draw them.
        let runs = try runProgram(
            "sqlite3", [self.path, "SELECT count(*) FROM run WHERE invocation IS NULL OR invocation != id"])
        #expect(runs.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test("A catalog of an older photoingest is read without a byte of it changed, through a migrated copy")
    func anOlderCatalogIsReadUntouched() async throws {
        try self.loadFixture("catalog-v2.sql")
        let before = try Data(contentsOf: URL(fileURLWithPath: self.path))

        let catalog = try Catalog(readingOnly: self.path)
        let entries = try await catalog.entries(
            for: ["/photos/IMG_0002.jpg", "/photos/README.txt"], destination: "archive:/srv/archive",
            events: ["Party"])
        #expect(entries.found == 2)
        #expect(entries[1, 0]?.status == .skipped)

        #expect(try Data(contentsOf: URL(fileURLWithPath: self.path)) == before)
        let migrations = try runProgram(
            "sqlite3", [self.path, "SELECT identifier FROM grdb_migrations ORDER BY rowid"])
        #expect(migrations.stdout.split(separator: "\n") == ["v1", "v2-error-code"], "still v2's, for a v2 run")
        #expect(throws: IngestError.self) { try Catalog(readingOnly: self.folder.appending("none.sqlite").path) }
    }

    @Test("A catalog written by schema v2 is migrated: an outside verdict in an assumed zone is judged again, once")
    func migratesAVersion2Catalog() async throws {
        try self.loadFixture("catalog-v2.sql")

        let catalog = try Catalog(path: self.path)
        let window = EventWindow(
            start: RFC3339.parse("2025-09-27T21:00:00Z"), end: RFC3339.parse("2025-09-28T00:00:00Z"))
        let entries = try await catalog.entries(
            for: ["/photos/IMG_0002.jpg", "/photos/noexif.jpg", "/photos/README.txt"],
            destination: "archive:/srv/archive", events: ["Party"])
        let dated = try #require(entries[0, 0])
        let assumed = try #require(entries[1, 0])
        let skipped = try #require(entries[2, 0])
        // The camera's own offset: outside whatever zone a run assumes.
        #expect(dated.isDone(stamp: dated.stamp, window: window, zone: "America/Los_Angeles"))
        // Dated in a zone v2 did not record: judged again in the zone of the next run.
        #expect(!assumed.isDone(stamp: assumed.stamp, window: window, zone: "Asia/Tokyo"))
        #expect(skipped.isDone(stamp: skipped.stamp, window: window, zone: "Asia/Tokyo"))

        // Recorded again with its zone, it is final for that zone only.
        let run = try await catalog.beginRun(destination: "archive:/srv/archive", event: "Party")
        var again = self.record("/photos/noexif.jpg", .outside, window: window, stamp: assumed.stamp)
        again.destination = "archive:/srv/archive"
        again.event = "Party"
        again.assumedZone = "Asia/Tokyo"
        try await catalog.record([again], run: run)
        let recorded = try await catalog.entries(
            for: ["/photos/noexif.jpg"], destination: "archive:/srv/archive", events: ["Party"])
        let now = try #require(recorded[0, 0])
        #expect(now.isDone(stamp: assumed.stamp, window: window, zone: "Asia/Tokyo"))
        #expect(!now.isDone(stamp: assumed.stamp, window: window, zone: "Europe/Berlin"))
    }

    @Test("A catalog with a damaged page is refused with a message, and not a byte of it is rewritten")
    func aCorruptCatalogIsRefusedAndLeftAlone() async throws {
        do {
            let catalog = try Catalog(path: self.path)
            let run = try await catalog.beginRun(destination: "archive:/a", event: "default")
            try await catalog.record((0..<200).map { self.record("/photos/\($0).jpg", .uploaded) }, run: run)
        }
        // Fold the WAL into the file, then damage the schema's page past the 100-byte header.
        try runProgram("sqlite3", [self.path, "PRAGMA wal_checkpoint(TRUNCATE)"])
        let url = URL(fileURLWithPath: self.path)
        var bytes = try Data(contentsOf: url)
        for index in 100..<1_000 { bytes[index] = 0xA5 }
        try bytes.write(to: url)

        let error = #expect(throws: IngestError.self) { try Catalog(path: self.path) }
        #expect(error?.code == .catalogUnusable)
        #expect(error?.message.contains("left as it is") == true, "\(error?.message ?? "")")
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test("A lookup of 3,000 files in several events answers each event's own outcome for every file")
    func largeLookupsAreAnsweredInFull() async throws {
        let catalog = try Catalog(path: self.path)
        let paths = (0..<3_000).map { "/p/\($0).jpg" }
        for (event, status) in [("one", FileStatus.uploaded), ("two", .outside)] {
            let run = try await catalog.beginRun(destination: "archive:/a", event: event)
            try await catalog.record(
                paths.map { path in
                    var record = self.record(path, status)
                    record.event = event
                    return record
                }, run: run)
        }
        let entries = try await catalog.entries(for: paths, destination: "archive:/a", events: ["one", "two", "three"])
        #expect(entries.found == 6_000)
        #expect((0..<3_000).allSatisfy { entries[$0, 0]?.status == .uploaded })
        #expect(
            (0..<3_000).allSatisfy { entries[$0, 1]?.status == .outside && entries[$0, 1]?.window == EventWindow() })
        #expect((0..<3_000).allSatisfy { entries[$0, 2] == nil })
    }

    @Test("Paths that JSON must escape, or that are not UTF-8, are found, each answer at the place it was asked")
    func lookupsOfAwkwardPaths() async throws {
        let catalog = try Catalog(path: self.path)
        let paths = [
            "/p/quote\"d.jpg", "/p/back\\slash.jpg", "/p/line\nbreak.jpg", "/p/tab\t.jpg", "/p/été.jpg",
            "/p/" + PathBytes.string([0x4C, 0xE9, 0x2E, 0x6A, 0x70, 0x67]), "/p/plain.jpg",
        ]
        let run = try await catalog.beginRun(destination: "archive:/a", event: "default")
        try await catalog.record(
            paths.enumerated().map {
                self.record(
                    $1, $0.isMultiple(of: 2) ? .uploaded : .outside,
                    window: EventWindow(start: Date(timeIntervalSince1970: Double($0))))
            },
            run: run)
        let asked = paths.reversed() + ["/p/never.jpg"]
        let entries = try await catalog.entries(for: Array(asked), destination: "archive:/a", events: ["default"])
        #expect(entries.found == paths.count)
        for (position, path) in asked.enumerated() {
            guard let index = paths.firstIndex(of: path) else {
                #expect(entries[position, 0] == nil)
                continue
            }
            #expect(entries[position, 0]?.status == (index.isMultiple(of: 2) ? .uploaded : .outside), "\(path)")
            // Only an outside verdict depends on its window, so only it carries one.
            #expect(
                entries[position, 0]?.window
                    == (index.isMultiple(of: 2) ? nil : EventWindow(start: Date(timeIntervalSince1970: Double(index)))),
                "\(path)")
        }
    }
}

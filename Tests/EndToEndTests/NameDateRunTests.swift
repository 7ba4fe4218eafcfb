import Foundation
import IngestCore
import IngestTesting
import Testing

/// Files with no date of their own, through the built binary: dated by their names where a
/// phone, a Pixel or WhatsApp named them after the moment, and otherwise undated (never put into
/// a window by their copy time) unless `--undated mtime`.
@Suite struct NameDateRunTests {
    /// EXIF-less JPEGs, each with its modification time.
    static func folder() throws -> TemporaryFolder {
        let folder = TemporaryFolder("name-dates")
        let files: [(String, String)] = [
            ("PXL_20240504_131617123.jpg", "2024-05-20T09:00:00Z"),
            ("IMG_20240504_151617.jpg", "2024-05-20T09:00:00Z"),
            // WhatsApp names give a day: the first was copied that day, the others later.
            ("IMG-20240504-WA0007.jpg", "2024-05-04T16:00:00Z"),
            ("IMG-20240504-WA0008.jpg", "2024-05-20T09:00:00Z"),
            ("IMG-20240503-WA0001.jpg", "2024-05-20T09:00:00Z"),
            // Only the copy time says anything, and it falls in the window.
            ("IMG_1234.jpg", "2024-05-04T16:00:00Z"),
        ]
        for (name, modified) in files {
            let url = try Fixtures.jpeg(in: folder, name: name)
            try FileManager.default.setAttributes(
                [.modificationDate: try #require(RFC3339.parse(modified))], ofItemAtPath: url.path)
        }
        return folder
    }

    static let window = ["--from", "2024-05-03T12:00:00-04:00", "--until", "2024-05-05T12:00:00-04:00"]

    @Test("Names date EXIF-less files by each pattern's rule; a copy time alone leaves a file undated")
    func namesAndUndated() throws {
        let folder = try Self.folder()
        let cli = CommandLine("name-dates")
        let run = try cli.ingest([folder.url], Self.window + ["--timezone", "America/New_York"])
        #expect(run.status == 0, "\(run.result.stderr)")
        func entry(_ name: String) -> (String?, String?, String) {
            let line = run.entry(named: name)
            return (line?.captureSource, line?.captureTime, line?.status.rawValue ?? "none")
        }
        #expect(entry("PXL_20240504_131617123.jpg") == ("file-name", "2024-05-04T13:16:17.123Z", "uploaded"))
        #expect(entry("IMG_20240504_151617.jpg") == ("file-name", "2024-05-04T19:16:17Z", "uploaded"))
        #expect(entry("IMG-20240504-WA0007.jpg") == ("file-name+mtime", "2024-05-04T16:00:00Z", "uploaded"))
        #expect(entry("IMG-20240504-WA0008.jpg").0 == "file-name-day")
        #expect(entry("IMG-20240504-WA0008.jpg").2 == "uploaded", "the window holds all of May 4th in New York")
        #expect(entry("IMG-20240503-WA0001.jpg").2 == "undated", "the window holds only part of May 3rd")
        #expect(entry("IMG_1234.jpg") == ("file-mtime", "2024-05-04T16:00:00Z", "undated"))
        #expect(run.summary?.event?.counts.undated == 2)
        #expect(run.entry(named: "IMG_1234.jpg")?.reason?.contains("--undated mtime") == true)

        // Asked to, the next run places the file by its copy time; the day-only one stays out.
        let again = try cli.ingest(
            [folder.url], Self.window + ["--timezone", "America/New_York", "--undated", "mtime"])
        #expect(again.entry(named: "IMG_1234.jpg")?.status == .uploaded)
        #expect(again.entry(named: "IMG-20240503-WA0001.jpg")?.status == .undated)
        #expect(again.summary?.event?.counts.uploaded == 1, "only the file undated by its copy time is new")

        // The archive's default event has no window: every file is stored there.
        let open = try CommandLine("name-dates-open").ingest([folder.url], ["--timezone", "America/New_York"])
        #expect(open.count("stored") == 6)

        // Without names, the Pixel photo has only its copy time.
        let blind = try CommandLine("name-dates-off").ingest(
            [folder.url], Self.window + ["--timezone", "America/New_York", "--no-name-dates"])
        #expect(blind.entry(named: "PXL_20240504_131617123.jpg")?.status == .undated)
        #expect(blind.summary?.event?.counts.undated == 6)
    }

    @Test("A server event whose window holds a file's copy time does not get it, unless --undated mtime")
    func serverEvent() throws {
        let folder = TemporaryFolder("undated-server")
        let url = try Fixtures.jpeg(in: folder, name: "IMG_1234.jpg")
        try FileManager.default.setAttributes(
            [.modificationDate: try #require(RFC3339.parse("2024-05-04T16:00:00Z"))], ofItemAtPath: url.path)
        let server = try ReferenceServer()
        let event = try server.addEvent(name: "Party", start: "2024-05-04T00:00:00Z", end: "2024-05-05T00:00:00Z")
        let token = ["PHOTOINGEST_TOKEN": try server.token()]
        let cli = CommandLine("undated-server")
        let run = try cli.ingest([folder.url], ["--server", server.url], environment: token)
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.entry(named: "IMG_1234.jpg")?.status == .undated)
        #expect(try server.held(inEvent: event).isEmpty)
        let placed = try cli.ingest([folder.url], ["--server", server.url, "--undated", "mtime"], environment: token)
        #expect(placed.entry(named: "IMG_1234.jpg")?.status == .uploaded)
        #expect(try server.held(inEvent: event).count == 1)
    }

    @Test("--undated skip leaves such files out of every event, with the reason; a zone change re-dates names")
    func skipAndZones() throws {
        let folder = try Self.folder()
        let skipped = try CommandLine("name-dates-skip").ingest(
            [folder.url], ["--undated", "skip", "--timezone", "UTC"])
        #expect(skipped.entry(named: "IMG_1234.jpg")?.status == .skipped)
        #expect(skipped.count("stored") == 5)

        // A local time in a name is read in the run's zone: another zone dates it again from
        // the catalog, and the photo it moves into the window is stored.
        let cli = CommandLine("name-dates-zones")
        let window = ["--from", "2024-05-04T05:00:00Z", "--until", "2024-05-04T07:00:00Z"]
        let utc = try cli.ingest([folder.url], window + ["--timezone", "UTC"])
        #expect(utc.entry(named: "IMG_20240504_151617.jpg")?.captureTime == "2024-05-04T15:16:17Z")
        #expect(utc.entry(named: "IMG_20240504_151617.jpg")?.status == .outside)
        let tokyo = try cli.ingest([folder.url], window + ["--timezone", "Asia/Tokyo"])
        #expect(tokyo.entry(named: "IMG_20240504_151617.jpg")?.captureTime == "2024-05-04T06:16:17Z")
        #expect(tokyo.entry(named: "IMG_20240504_151617.jpg")?.status == .uploaded)
        #expect(tokyo.entry(named: "PXL_20240504_131617123.jpg")?.status != .uploaded, "a UTC name moves with no zone")
    }
}

import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import IngestZones
import Testing

/// Travellers' photos: the camera's clock on local time, a GPS position and nothing else, the
/// user's `--timezone` far from all of them. Each is dated in the zone where it was taken.
@Suite(.serialized) struct PositionZoneRunTests {
    static let folder = TemporaryFolder("position-zone")
    /// name → (wall clock, latitude, longitude, the instant, the zone)
    static let places: [String: (String, Double, Double, String, String)] = [
        "kathmandu.jpg": ("2024:03:10 12:00:00", 27.7172, 85.3240, "2024-03-10T06:15:00Z", "Asia/Kathmandu"),
        "adelaide-january.jpg": (
            "2025:01:15 12:00:00", -34.9285, 138.6007, "2025-01-15T01:30:00Z", "Australia/Adelaide"
        ),
        "adelaide-july.jpg": ("2025:07:15 12:00:00", -34.9285, 138.6007, "2025-07-15T02:30:00Z", "Australia/Adelaide"),
        "reykjavik.jpg": ("2025:06:01 12:00:00", 64.1466, -21.9426, "2025-06-01T12:00:00Z", "Atlantic/Reykjavik"),
        "auckland.jpg": ("2025:01:15 12:00:00", -36.8485, 174.7633, "2025-01-14T23:00:00Z", "Pacific/Auckland"),
        "new-york-before-dst.jpg": (
            "2024:03:09 23:30:00", 40.7128, -74.0060, "2024-03-10T04:30:00Z", "America/New_York"
        ),
        "new-york-after-dst.jpg": (
            "2024:03:10 03:30:00", 40.7128, -74.0060, "2024-03-10T07:30:00Z", "America/New_York"
        ),
        "at-sea.jpg": ("2025:08:01 12:00:00", 30.0, -40.0, "2025-08-01T15:00:00Z", "Etc/GMT+3"),
    ]
    /// Where scripts/zone-data (run by scripts/setup) writes the zone file for this user.
    static let zoneData = ZoneBoundaries.standardPaths()[0]
    /// Far from every place above: photos read in it would be hours off.
    static let home = "Pacific/Marquesas"

    static let media: Result<URL, Error> = Result {
        let source = TestEnvironment.realCorpus.appendingPathComponent("jpeg/Canon IXUS 300.jpg")
        let fields =
            try Fixtures.exiftool(["-OffsetTimeOriginal", "-GPSLatitude"], files: [source])[source.path] ?? [:]
        guard fields["OffsetTimeOriginal"] == nil, fields["GPSLatitude"] == nil else {
            throw FixtureError("\(source.lastPathComponent) has an offset or a position of its own")
        }
        for (name, (wall, latitude, longitude, _, _)) in Self.places {
            let photo = Self.folder.appending(name)
            try FileManager.default.copyItem(at: source, to: photo)
            try Fixtures.write(
                [
                    "DateTimeOriginal": wall, "GPSLatitude": "\(abs(latitude))",
                    "GPSLatitudeRef": latitude < 0 ? "S" : "N", "GPSLongitude": "\(abs(longitude))",
                    "GPSLongitudeRef": longitude < 0 ? "W" : "E",
                ], to: photo)
        }
        return Self.folder.url
    }

    @Test("Into the archive: each dated to the second in the zone at its position, which the catalog keeps")
    func archiveRun() throws {
        let media = try Self.media.get()
        let cli = CommandLine("position-archive")
        let run = try cli.ingest(
            [media], ["--timezone", Self.home, "--zone-data", Self.zoneData])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.count("uploaded") == Self.places.count)
        #expect(run.result.stderr.contains("the zone at the GPS position"), "\(run.result.stderr)")
        for (name, (_, _, _, instant, zone)) in Self.places {
            let entry = try #require(run.entry(named: name), "\(name) has no outcome")
            #expect(entry.captureTime == instant, "\(name): \(entry)")
            #expect(entry.captureSource == "exif-gps-position", "\(name): \(entry)")
            #expect(entry.zone == zone, "\(name): \(entry)")
            #expect(entry.assumedZone == nil, "\(name): \(entry)")
            let recorded = try runProgram(
                "sqlite3",
                [cli.catalog.path, "SELECT capture_zone, capture_time FROM file WHERE path LIKE '%/\(name)'"])
            #expect(recorded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(zone)|\(instant)")
        }
    }

    @Test("To the reference server: the same instants")
    func serverRun() throws {
        let media = try Self.media.get()
        let server = try ReferenceServer()
        _ = try server.addEvent(name: "Travels", start: "2024-01-01T00:00:00Z", end: "2026-01-01T00:00:00Z")
        let cli = CommandLine("position-server")
        let run = try cli.ingest(
            [media], ["--server", server.url, "--timezone", Self.home, "--zone-data", Self.zoneData],
            environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.count("uploaded") == Self.places.count)
        for (name, (_, _, _, instant, _)) in Self.places {
            let stored = try server.sql("SELECT capture_time FROM event_photo WHERE filename = '\(name)'")
            #expect(stored == instant, "\(name)")
        }
    }

    @Test("Without the zone file: said once, and the photos are read in --timezone as before")
    func withoutZoneFile() throws {
        let media = try Self.media.get()
        let cli = CommandLine("position-none")
        let run = try cli.ingest([media], ["--timezone", Self.home, "--dry-run"])
        #expect(run.status == 0, "\(run.result.stderr)")
        let warnings = run.result.stderr.components(separatedBy: "no time-zone boundaries").count - 1
        #expect(warnings == 1, "\(run.result.stderr)")
        let entry = try #require(run.entry(named: "kathmandu.jpg"))
        #expect(entry.captureSource == "exif-assumed-zone")
        #expect(entry.captureTime == "2024-03-10T21:30:00Z")
        #expect(entry.zone == Self.home)
    }

    @Test("A photo judged outside without zone boundaries is judged again by a run that has them")
    func reRunWithZoneData() throws {
        let media = try Self.media.get()
        let cli = CommandLine("position-rerun")
        // Kathmandu's noon is 06:15 UTC; read in Marquesas time it would be 21:30 UTC.
        let window = ["--from", "2024-03-10T06:00:00Z", "--until", "2024-03-10T07:00:00Z", "--timezone", Self.home]
        let blind = try cli.ingest([media], window)
        #expect(blind.status == 0, "\(blind.result.stderr)")
        #expect(blind.entry(named: "kathmandu.jpg")?.status == .outside)
        let again = try cli.ingest([media], window)
        #expect(
            again.entry(named: "kathmandu.jpg")?.reason == "unchanged since an earlier run",
            "a run as blind as the first passes it over")
        #expect(again.summary?.event?.unchanged == Self.places.count)
        let seeing = try cli.ingest([media], window + ["--zone-data", Self.zoneData])
        let entry = try #require(seeing.entry(named: "kathmandu.jpg"))
        #expect(entry.status == .uploaded, "\(entry)")
        #expect(entry.captureTime == "2024-03-10T06:15:00Z")
        #expect(seeing.count("uploaded") == 1)
    }

    @Test("A video's position names its zone: a UTC time is shown in it, a time with an offset agrees with it")
    func videoZones() throws {
        let folder = TemporaryFolder("position-video")
        _ = try Fixtures.video(
            in: folder, name: "paris.mov", seconds: 1, creationTime: "2025-07-15T10:00:00Z",
            keys: ["com.apple.quicktime.location.ISO6709": "+48.8584+002.2945+035.000/"])
        try FileManager.default.copyItem(
            at: TestEnvironment.mediaCorpus.appendingPathComponent("video/with-gps.mov"),
            to: folder.appending("tel-aviv.mov"))
        let cli = CommandLine("position-video")
        let run = try cli.ingest([folder.url], ["--timezone", Self.home, "--zone-data", Self.zoneData])
        #expect(run.status == 0, "\(run.result.stderr)")
        let paris = try #require(run.entry(named: "paris.mov"))
        #expect(paris.captureTime == "2025-07-15T10:00:00Z", "\(paris)")
        #expect(paris.captureSource == "quicktime-utc")
        #expect(paris.zone == "Europe/Paris" && paris.offset == "+02:00", "\(paris)")
        #expect(paris.localTime == "2025-07-15T12:00:00", "\(paris)")
        let telAviv = try #require(run.entry(named: "tel-aviv.mov"))
        #expect(telAviv.captureTime == "2019-07-24T08:25:40Z", "\(telAviv)")
        #expect(telAviv.captureSource == "quicktime-offset")
        #expect(telAviv.zone == "Asia/Jerusalem", "\(telAviv)")
        let recorded = try runProgram(
            "sqlite3", [cli.catalog.path, "SELECT capture_zone FROM file WHERE path LIKE '%/paris.mov'"])
        #expect(recorded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "Europe/Paris")
    }

    @Test("A --zone-data that is no zone file stops the run before it starts (exit 2)")
    func badZoneFile() throws {
        let media = try Self.media.get()
        let cli = CommandLine("position-bad")
        let missing = cli.folder.appending("nowhere.sqlite")
        let run = try cli.ingest([media], ["--zone-data", missing.path])
        #expect(run.status == 2, "\(run.result.stderr)")
        #expect(run.result.stderr.contains("--zone-data") && run.result.stderr.contains(missing.path))
    }
}

import Foundation
import IngestContainers
import IngestCore
import IngestDating
import IngestImaging
import IngestTesting
import IngestZones
import Testing

/// A video's position (ISO 6709) names its zone and, for a UTC `mvhd` time, gives its local time;
/// it never moves the instant.
@Suite struct VideoZoneTests {
    /// 2025-07-15T10:00:00Z as `mvhd` writes it: seconds since 1904 (2,082,844,800 before 1970).
    static let july = UInt64(1_752_573_600 + 2_082_844_800)

    @Test(
        "ISO 6709 positions as videos write them, in degrees, degrees and minutes, or with seconds",
        arguments: [
            ("+37.3318-122.0312/", 37.3318, -122.0312), ("+32.0929+034.8620+028.516/", 32.0929, 34.862),
            ("+51.4169-000.0806/", 51.4169, -0.0806), ("-33.8688+151.2093", -33.8688, 151.2093),
            ("+3719.908-12201.872/", 37.33180, -122.03120), ("+371954.48-1220112.32/", 37.33180, -122.02009),
        ])
    func parses(text: String, latitude: Double, longitude: Double) throws {
        let position = try #require(GeoPosition(iso6709: text))
        #expect(abs(position.latitude - latitude) < 1e-5 && abs(position.longitude - longitude) < 1e-5, "\(position)")
    }

    @Test(
        "Not an ISO 6709 point: no sign, one component, a minute of 60, off the globe, digits of no form",
        arguments: [
            "", "37.3318-122.0312/", "+37.3318/", "+3760.000-12201.872/", "+91.0000+000.0000/",
            "+45.0+181.0/", "+123.4+012.3/", "+45.-012.3/", "+AB.C+012.3/",
        ])
    func refuses(text: String) {
        #expect(GeoPosition(iso6709: text) == nil)
    }

    @Test("The real videos' positions are exiftool's")
    func realVideosAgreeWithExiftool() throws {
        let videos = ["with-gps.mov", "with-gps.mp4"].map {
            TestEnvironment.mediaCorpus.appendingPathComponent("video/\($0)")
        }
        let oracle = try Fixtures.exiftool(["-Composite:GPSLatitude", "-Composite:GPSLongitude"], files: videos)
        for video in videos {
            let bytes = Array(try Data(contentsOf: video))
            let moov = try #require(
                bytes.withUnsafeBytes { raw in
                    ISOBox.find("moov", in: ByteReader(raw), range: 0..<raw.count).map { Array(bytes[$0.payload]) }
                })
            let fields = moov.withUnsafeBytes { QuickTimeReader.fields(moov: $0) }
            let position = try #require(
                fields.location.flatMap { GeoPosition(iso6709: $0) }, "\(video.lastPathComponent)")
            let theirs = try #require(oracle[video.path])
            #expect(abs(position.latitude - (theirs["GPSLatitude"] as? Double ?? .nan)) < 1e-6)
            #expect(abs(position.longitude - (theirs["GPSLongitude"] as? Double ?? .nan)) < 1e-6)
        }
    }

    static func resolver() throws -> CaptureTimeResolver {
        try CaptureTimeByPositionTests.resolver()
    }

    @Test("A UTC mvhd time and a position: the instant stands, the local time and offset are the zone's")
    func utcTimeGetsItsZone() throws {
        let capture = try Self.resolver().resolve(
            QuickTimeFields(movieCreated: Self.july, location: "+48.8584+002.2945/"), fileModified: Date())
        #expect(RFC3339.format(capture.instant) == "2025-07-15T10:00:00Z")
        #expect(capture.source == .quickTimeUTC)
        #expect(capture.zone == "Europe/Paris" && capture.offset == "+02:00")
        #expect(capture.localTime?.description == "2025-07-15T12:00:00")
    }

    @Test("A time with its own offset: the zone is named where it agrees, and noted where it does not")
    func offsetAgainstZone() throws {
        let resolver = try Self.resolver()
        let agreed = resolver.resolve(
            QuickTimeFields(appleCreationDate: "2019-07-24T11:25:40+0300", location: "+32.0929+034.8620+028.516/"),
            fileModified: Date())
        #expect(agreed.zone == "Asia/Jerusalem" && agreed.offset == "+03:00")
        let travelling = resolver.resolve(
            QuickTimeFields(appleCreationDate: "2019-07-24T11:25:40+0900", location: "+32.0929+034.8620+028.516/"),
            fileModified: Date())
        #expect(RFC3339.format(travelling.instant) == "2019-07-24T02:25:40Z" && travelling.offset == "+09:00")
        #expect(travelling.zone == nil)
        #expect(
            travelling.notes.contains { $0.contains("Asia/Jerusalem") && $0.contains("+03:00") }, "\(travelling.notes)")
    }

    @Test("A location that is no position, or 0°, 0°, is noted and changes nothing")
    func refusedLocations() throws {
        let resolver = try Self.resolver()
        for location in ["somewhere", "+00.0000+000.0000/"] {
            let capture = resolver.resolve(
                QuickTimeFields(movieCreated: Self.july, location: location), fileModified: Date())
            #expect(capture.zone == nil && capture.offset == "+00:00" && capture.localTime == nil)
            #expect(capture.notes.contains { $0.contains("refused") }, "\(capture.notes)")
        }
        let noZones = CaptureTimeResolver(assumedZone: TimeZone(identifier: "UTC")!)
        let capture = noZones.resolve(
            QuickTimeFields(movieCreated: Self.july, location: "+48.8584+002.2945/"), fileModified: Date())
        #expect(capture.zone == nil && capture.localTime == nil && capture.notes.isEmpty)
    }
}

import Foundation
import IngestContainers
import IngestCore
import IngestDating
import IngestZones
import Testing

/// The capture-time rules that use the GPS position, over the real zone boundaries.
@Suite struct CaptureTimeByPositionTests {
    /// A zone far from every place below, as a traveller's `--timezone` at home would be.
    static let home = TimeZone(identifier: "Pacific/Marquesas")!

    static func resolver() throws -> CaptureTimeResolver {
        CaptureTimeResolver(
            assumedZone: Self.home, now: Date(timeIntervalSince1970: 1_800_000_000),
            zones: try ZoneBoundariesTests.boundaries.get())
    }

    /// Degrees as EXIF's three rationals (degrees, minutes, seconds in thousandths).
    static func dms(_ value: Double) -> [ExifRational] {
        let degrees = abs(value)
        let minutes = (degrees - degrees.rounded(.down)) * 60
        let seconds = (minutes - minutes.rounded(.down)) * 60
        return [
            ExifRational(UInt32(degrees), 1), ExifRational(UInt32(minutes), 1),
            ExifRational(UInt32((seconds * 1_000).rounded()), 1_000),
        ]
    }

    static func fields(
        _ wall: String, at latitude: Double, _ longitude: Double, gps: (date: String, time: [UInt32])? = nil
    ) -> ExifTimeFields {
        ExifTimeFields(
            dateTimeOriginal: wall, gpsDateStamp: gps?.date,
            gpsTimeStamp: gps?.time.map { ExifRational($0, 1) },
            gpsLatitudeRef: latitude < 0 ? "S" : "N", gpsLatitude: Self.dms(latitude),
            gpsLongitudeRef: longitude < 0 ? "W" : "E", gpsLongitude: Self.dms(longitude))
    }

    @Test(
        "A position and no offset or GPS time: the clock read in the zone there, DST-correct",
        arguments: [
            ("2024:03:10 12:00:00", 27.7172, 85.3240, "2024-03-10T06:15:00Z", "Asia/Kathmandu", "+05:45"),
            ("2025:01:15 12:00:00", -34.9285, 138.6007, "2025-01-15T01:30:00Z", "Australia/Adelaide", "+10:30"),
            ("2025:07:15 12:00:00", -34.9285, 138.6007, "2025-07-15T02:30:00Z", "Australia/Adelaide", "+09:30"),
            ("2025:06:01 12:00:00", 64.1466, -21.9426, "2025-06-01T12:00:00Z", "Atlantic/Reykjavik", "+00:00"),
            ("2025:01:15 12:00:00", -36.8485, 174.7633, "2025-01-14T23:00:00Z", "Pacific/Auckland", "+13:00"),
            ("2024:03:09 12:00:00", 40.7128, -74.0060, "2024-03-09T17:00:00Z", "America/New_York", "-05:00"),
            ("2024:03:10 12:00:00", 40.7128, -74.0060, "2024-03-10T16:00:00Z", "America/New_York", "-04:00"),
            ("2025:08:01 12:00:00", 30.0, -40.0, "2025-08-01T15:00:00Z", "Etc/GMT+3", "-03:00"),
        ])
    func position(wall: String, latitude: Double, longitude: Double, instant: String, zone: String, offset: String)
        throws
    {
        let capture = try Self.resolver().resolve(
            Self.fields(wall, at: latitude, longitude), fileModified: Date(timeIntervalSince1970: 0))
        #expect(RFC3339.format(capture.instant) == instant)
        #expect(capture.source == .exifGPSPosition)
        #expect(capture.zone == zone)
        #expect(capture.offset == offset)
        #expect(capture.assumedZone == nil)
    }

    @Test("GPS time that agrees with the zone at the position: both confirm the offset")
    func agreed() throws {
        let fields = Self.fields("2025:01:15 12:00:10", at: -34.9285, 138.6007, gps: ("2025:01:15", [1, 30, 4]))
        let capture = try Self.resolver().resolve(fields, fileModified: Date())
        #expect(capture.source == .exifGPSAgreed)
        #expect(capture.zone == "Australia/Adelaide")
        #expect(RFC3339.format(capture.instant) == "2025-01-15T01:30:10Z")
        #expect(capture.notes.isEmpty, "\(capture.notes)")
    }

    @Test("A fresh fix against a position in another zone: the fix wins, and a note says why")
    func cameraOnHomeTime() throws {
        // A Berlin camera's clock (CET, +01:00) in New York: the fix is 6 h behind the clock.
        let fields = Self.fields("2025:01:15 18:00:00", at: 40.7128, -74.0060, gps: ("2025:01:15", [17, 0, 2]))
        let capture = try Self.resolver().resolve(fields, fileModified: Date())
        #expect(capture.source == .exifGPSOffset)
        #expect(capture.offset == "+01:00")
        #expect(RFC3339.format(capture.instant) == "2025-01-15T17:00:00Z")
        #expect(capture.zone == nil)
        let note = capture.notes.joined(separator: "; ")
        #expect(note.contains("America/New_York was at -05:00") && note.contains("the fix won"), "\(note)")
    }

    @Test("A fix with no date, a camera on Tokyo time in Honolulu: of the days it may be, the one a zone can have")
    func datelessFixAcrossTheDateLine() throws {
        var fields = Self.fields("2025:01:15 12:00:00", at: 21.3069, -157.8583)
        fields.gpsTimeStamp = [ExifRational(3, 1), ExifRational(0, 1), ExifRational(2, 1)]
        let capture = try Self.resolver().resolve(fields, fileModified: Date())
        #expect(capture.source == .exifGPSOffset)
        #expect(capture.offset == "+09:00")
        #expect(RFC3339.format(capture.instant) == "2025-01-15T03:00:00Z")
        #expect(capture.notes.contains { $0.contains("Pacific/Honolulu was at -10:00") }, "\(capture.notes)")
    }

    @Test("A fix in the hour that happens twice agrees with the zone's later offset too")
    func fixInTheFold() throws {
        // New York, 3 November 2024: 01:30 happens at -04:00 and again at -05:00; the fix is 06:30 UTC.
        let fields = Self.fields("2024:11:03 01:30:00", at: 40.7128, -74.0060, gps: ("2024:11:03", [6, 30, 1]))
        let capture = try Self.resolver().resolve(fields, fileModified: Date())
        #expect(capture.source == .exifGPSAgreed)
        #expect(capture.offset == "-05:00")
        #expect(RFC3339.format(capture.instant) == "2024-11-03T06:30:00Z")
        #expect(!capture.notes.contains { $0.contains("disagree") }, "\(capture.notes)")
    }

    @Test("A stale fix (not a whole zone's offset from the clock) is refused: the position dates it")
    func staleFix() throws {
        let fields = Self.fields("2025:01:15 12:00:00", at: 27.7172, 85.3240, gps: ("2025:01:15", [3, 52, 0]))
        let capture = try Self.resolver().resolve(fields, fileModified: Date())
        #expect(capture.source == .exifGPSPosition)
        #expect(RFC3339.format(capture.instant) == "2025-01-15T06:15:00Z")
        #expect(capture.notes.contains { $0.contains("GPS offset refused") }, "\(capture.notes)")
    }

    @Test("The camera's own offset still comes first")
    func offsetFirst() throws {
        var fields = Self.fields("2025:01:15 12:00:00", at: 27.7172, 85.3240)
        fields.offsetTimeOriginal = "+01:00"
        let capture = try Self.resolver().resolve(fields, fileModified: Date())
        #expect(capture.source == .exifOffset)
        #expect(RFC3339.format(capture.instant) == "2025-01-15T11:00:00Z")
    }

    @Test("A wall time in the DST gap at the position is read with the offset before it, and noted")
    func gapAtThePosition() throws {
        let capture = try Self.resolver().resolve(
            Self.fields("2024:03:10 02:30:00", at: 40.7128, -74.0060), fileModified: Date())
        #expect(capture.source == .exifGPSPosition)
        #expect(capture.offset == "-05:00")
        #expect(capture.notes.contains { $0.contains("does not exist in America/New_York") }, "\(capture.notes)")
    }

    @Test("Positions refused: 0°, 0°, a missing hemisphere, a void fix; the assumed zone dates them")
    func refused() throws {
        let resolver = try Self.resolver()
        var null = Self.fields("2025:01:15 12:00:00", at: 0, 0)
        null.gpsLatitude = [ExifRational(0, 1), ExifRational(0, 1), ExifRational(0, 1)]
        null.gpsLongitude = null.gpsLatitude
        var noReference = Self.fields("2025:01:15 12:00:00", at: 27.7172, 85.3240)
        noReference.gpsLongitudeRef = nil
        var void = Self.fields("2025:01:15 12:00:00", at: 27.7172, 85.3240)
        void.gpsStatus = "V"
        var minutes = Self.fields("2025:01:15 12:00:00", at: 27.7172, 85.3240)
        minutes.gpsLatitude = [ExifRational(27, 1), ExifRational(75, 1), ExifRational(0, 1)]
        for (fields, why) in [
            (null, "0°, 0°"), (noReference, "GPSLongitudeRef"), (void, "void"), (minutes, "rationals"),
        ] {
            let capture = resolver.resolve(fields, fileModified: Date())
            #expect(capture.source == .exifAssumedZone, "\(why)")
            #expect(capture.zone == "Pacific/Marquesas", "\(why)")
            #expect(
                capture.notes.contains { $0.contains("GPS position") && $0.contains(why) }, "\(why): \(capture.notes)")
        }
    }

    @Test("Without zone boundaries a position dates nothing: the rules of before")
    func withoutBoundaries() {
        let resolver = CaptureTimeResolver(assumedZone: Self.home, now: Date(timeIntervalSince1970: 1_800_000_000))
        let capture = resolver.resolve(Self.fields("2024:03:10 12:00:00", at: 27.7172, 85.3240), fileModified: Date())
        #expect(capture.source == .exifAssumedZone)
        #expect(capture.zone == "Pacific/Marquesas")
        #expect(RFC3339.format(capture.instant) == "2024-03-10T21:30:00Z")
        #expect(capture.positionUnused, "a run with zone boundaries should date it again")
        let none = resolver.resolve(ExifTimeFields(dateTimeOriginal: "2024:03:10 12:00:00"), fileModified: Date())
        #expect(!none.positionUnused)
    }
}

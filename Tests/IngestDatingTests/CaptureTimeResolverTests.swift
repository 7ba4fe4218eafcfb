import Foundation
import IngestCore
import IngestDating
import Testing

@Suite struct CaptureTimeResolverTests {
    let now = RFC3339.parse("2026-01-01T00:00:00Z")!
    let mtime = RFC3339.parse("2024-05-05T05:05:05Z")!

    func resolver(_ zone: String = "UTC") -> CaptureTimeResolver {
        CaptureTimeResolver(assumedZone: TimeZone(identifier: zone)!, now: self.now)
    }

    func utc(_ text: String) -> Date { RFC3339.parse(text)! }

    @Test(
        "OffsetTimeOriginal east, west and +05:45 gives the instant the camera meant",
        arguments: [
            ("2025:09:27 21:39:00", "-07:00", "2025-09-28T04:39:00Z"),
            ("2025:09:27 21:39:00", "+02:00", "2025-09-27T19:39:00Z"),
            ("2025:09:27 21:39:00", "+05:45", "2025-09-27T15:54:00Z"),
            ("2025:01:01 00:10:00", "+14:00", "2024-12-31T10:10:00Z"),
        ])
    func offsetRule(wall: String, offset: String, expected: String) {
        let capture = self.resolver("Asia/Tokyo").resolve(
            ExifTimeFields(dateTimeOriginal: wall, offsetTimeOriginal: offset), fileModified: self.mtime)
        #expect(capture.source == .exifOffset)
        #expect(capture.instant == self.utc(expected))
        #expect(capture.offset == offset)
        // The wall clock is kept as written, beside the instant.
        let written = wall.prefix(10).replacingOccurrences(of: ":", with: "-") + "T" + wall.suffix(8)
        #expect(capture.localTime?.description == written)
    }

    @Test func subsecondsAreKept() {
        let capture = self.resolver().resolve(
            ExifTimeFields(
                dateTimeOriginal: "2025:09:27 21:39:00", subSecTimeOriginal: "07", offsetTimeOriginal: "+00:00"),
            fileModified: self.mtime)
        #expect(capture.instant == self.utc("2025-09-27T21:39:00.070Z"))
        #expect(capture.localTime?.millisecond == 70)
    }

    @Test("The production regression: a -07:00 photo at 21:39 is inside a 21:00-05:00 UTC event")
    func productionRegression() {
        let window = EventWindow(start: RFC3339.parse("2025-09-27T21:00:00"), end: RFC3339.parse("2025-09-28T05:00:00"))
        let fields = ExifTimeFields(dateTimeOriginal: "2025:09:27 21:39:00", offsetTimeOriginal: "-07:00")
        let capture = self.resolver("Europe/Berlin").resolve(fields, fileModified: self.mtime)
        #expect(capture.instant == self.utc("2025-09-28T04:39:00Z"))
        #expect(window.contains(capture.instant))
        // Read in the host's zone instead (ignoring the offset) it would be outside.
        let hostRead = self.resolver("Europe/Berlin").resolve(
            ExifTimeFields(dateTimeOriginal: "2025:09:27 21:39:00"), fileModified: self.mtime)
        #expect(!window.contains(hostRead.instant))
    }

    @Test func offsetDigitizedGoesWithDateTimeDigitizedOnly() {
        let digitized = self.resolver().resolve(
            ExifTimeFields(dateTimeDigitized: "2025:09:27 10:00:00", offsetTimeDigitized: "+03:00"),
            fileModified: self.mtime)
        #expect(digitized.source == .exifOffset)
        #expect(digitized.instant == self.utc("2025-09-27T07:00:00Z"))
        // OffsetTimeDigitized says nothing about DateTimeOriginal's clock.
        let original = self.resolver().resolve(
            ExifTimeFields(dateTimeOriginal: "2025:09:27 10:00:00", offsetTimeDigitized: "+03:00"),
            fileModified: self.mtime)
        #expect(original.source == .exifAssumedZone)
    }

    @Test(
        "Malformed offsets are refused and said so",
        arguments: ["+15:00", "-14:30", "+5:00", "0200", "+02:60", "Z", "+02:00:00", "+ab:cd"])
    func malformedOffset(offset: String) {
        let capture = self.resolver().resolve(
            ExifTimeFields(dateTimeOriginal: "2025:09:27 21:39:00", offsetTimeOriginal: offset),
            fileModified: self.mtime)
        #expect(capture.source == .exifAssumedZone)
        #expect(capture.notes.contains { $0.contains("OffsetTimeOriginal") && $0.contains("refused") })
    }

    @Test(
        "Impossible wall times are refused rather than guessed",
        arguments: [
            ("0000:00:00 00:00:00", "all zero"), ("    :  :     :  :  ", "blank"), ("", "blank"),
            ("2025:13:01 10:00:00", "no such date"), ("2025:02:30 10:00:00", "no such date"),
            ("2025:09:27 24:00:00", "no such date"), ("1899:12:31 23:59:59", "before 1900"),
            ("2026:01:03 00:00:00", "future"), ("2025/09/27 10:00:00", "not YYYY"), ("garbage", "not YYYY"),
        ])
    func malformedWallTime(value: String, why: String) {
        let capture = self.resolver().resolve(ExifTimeFields(dateTimeOriginal: value), fileModified: self.mtime)
        #expect(capture.source == .fileMTime)
        #expect(capture.instant == self.mtime)
        #expect(capture.notes.contains { $0.contains(why) }, "\(capture.notes)")
    }

    @Test func digitizedIsTheFallbackAndModifyDateIsNeverUsed() {
        let capture = self.resolver().resolve(
            ExifTimeFields(dateTimeOriginal: "0000:00:00 00:00:00", dateTimeDigitized: "2020:02:02 12:00:00"),
            fileModified: self.mtime)
        #expect(capture.instant == self.utc("2020-02-02T12:00:00Z"))
        #expect(capture.source == .exifAssumedZone)
    }

    @Test func gpsInfersQuarterHourZonesThatExist() {
        // Nepal, +05:45, with the fix 40 s behind the shutter.
        let fields = ExifTimeFields(
            dateTimeOriginal: "2025:09:27 21:39:00", gpsDateStamp: "2025:09:27",
            gpsTimeStamp: [ExifRational(15, 1), ExifRational(53, 1), ExifRational(20, 1)])
        let capture = self.resolver().resolve(fields, fileModified: self.mtime)
        #expect(capture.source == .exifGPSOffset)
        #expect(capture.offset == "+05:45")
    }

    @Test func gpsGivesTheOffsetWhenItAgreesWithTheClock() {
        let fields = ExifTimeFields(
            dateTimeOriginal: "2025:09:27 21:39:12", gpsDateStamp: "2025:09:28",
            gpsTimeStamp: [ExifRational(4, 1), ExifRational(39, 1), ExifRational(1000, 100)], gpsStatus: "A")
        let capture = self.resolver("Asia/Tokyo").resolve(fields, fileModified: self.mtime)
        #expect(capture.source == .exifGPSOffset)
        #expect(capture.offset == "-07:00")
        #expect(capture.instant == self.utc("2025-09-28T04:39:12Z"))
    }

    @Test(
        "Stale or broken GPS fixes are refused",
        arguments: [
            // a day off: beyond 14 h
            ExifTimeFields(
                dateTimeOriginal: "2025:09:27 21:39:00", gpsDateStamp: "2025:09:26",
                gpsTimeStamp: [ExifRational(21, 1), ExifRational(39, 1), ExifRational(0, 1)]),
            // 40 minutes: rounds to +00:45, which no zone uses
            ExifTimeFields(
                dateTimeOriginal: "2025:09:27 21:39:00", gpsDateStamp: "2025:09:27",
                gpsTimeStamp: [ExifRational(20, 1), ExifRational(59, 1), ExifRational(0, 1)]),
            // 2 h 7.5 min: midway between quarter hours, a fix minutes stale
            ExifTimeFields(
                dateTimeOriginal: "2025:09:27 21:39:00", gpsDateStamp: "2025:09:27",
                gpsTimeStamp: [ExifRational(19, 1), ExifRational(31, 1), ExifRational(30, 1)]),
            // void status
            ExifTimeFields(
                dateTimeOriginal: "2025:09:27 21:39:00", gpsDateStamp: "2025:09:27",
                gpsTimeStamp: [ExifRational(19, 1), ExifRational(39, 1), ExifRational(0, 1)], gpsStatus: "V"),
            // zero denominator
            ExifTimeFields(
                dateTimeOriginal: "2025:09:27 21:39:00", gpsDateStamp: "2025:09:27",
                gpsTimeStamp: [ExifRational(19, 0), ExifRational(39, 1), ExifRational(0, 1)]),
        ])
    func gpsRefused(fields: ExifTimeFields) {
        let capture = self.resolver().resolve(fields, fileModified: self.mtime)
        #expect(capture.source == .exifAssumedZone)
        #expect(capture.notes.contains { $0.contains("GPS") })
    }

    @Test func gpsAloneGivesUTCAndMTimeIsTheLastResort() {
        let gpsOnly = self.resolver().resolve(
            ExifTimeFields(
                gpsDateStamp: "2025:09:27",
                gpsTimeStamp: [ExifRational(19, 1), ExifRational(39, 1), ExifRational(30, 1)]),
            fileModified: self.mtime)
        #expect(gpsOnly.source == .gpsUTC)
        #expect(gpsOnly.instant == self.utc("2025-09-27T19:39:30Z"))
        let nothing = self.resolver().resolve(nil, fileModified: self.mtime)
        #expect(nothing.source == .fileMTime)
        #expect(nothing.instant == self.mtime)
        #expect(nothing.source.isAssumed)
    }

    @Test(
        "Assumed zones are DST-correct, and a fold takes the earlier instant",
        arguments: [
            // Los Angeles: PDT (-07:00) in summer, PST (-08:00) in winter.
            ("America/Los_Angeles", "2025:07:01 12:00:00", "2025-07-01T19:00:00Z", nil as String?),
            ("America/Los_Angeles", "2025:01:15 12:00:00", "2025-01-15T20:00:00Z", nil),
            // 2025-03-09 02:30 does not exist (gap): read with the offset before the jump.
            ("America/Los_Angeles", "2025:03:09 02:30:00", "2025-03-09T10:30:00Z", "DST gap"),
            // 2025-11-02 01:30 happens twice (fold): the earlier, still PDT.
            ("America/Los_Angeles", "2025:11:02 01:30:00", "2025-11-02T08:30:00Z", "DST fold"),
            ("Europe/Berlin", "2025:03:30 02:30:00", "2025-03-30T01:30:00Z", "DST gap"),
            ("Europe/Berlin", "2025:10:26 02:30:00", "2025-10-26T00:30:00Z", "DST fold"),
            ("Europe/Berlin", "2025:08:01 09:00:00", "2025-08-01T07:00:00Z", nil),
        ])
    func assumedZone(zone: String, wall: String, expected: String, flag: String?) {
        let capture = self.resolver(zone).resolve(ExifTimeFields(dateTimeOriginal: wall), fileModified: self.mtime)
        #expect(capture.source == .exifAssumedZone)
        #expect(capture.assumedZone == zone)
        #expect(capture.instant == self.utc(expected))
        if let flag {
            #expect(capture.notes.contains { $0.contains(flag) }, "\(capture.notes)")
        } else {
            #expect(capture.notes.isEmpty)
        }
    }
}

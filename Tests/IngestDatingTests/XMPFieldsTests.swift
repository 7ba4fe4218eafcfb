import Foundation
import IngestCore
import IngestDating
import Testing

@Suite struct XMPFieldsTests {
    let now = RFC3339.parse("2026-01-01T00:00:00Z")!

    func read(_ original: String?, created: String? = nil) -> (XMPFields.Reading?, [String]) {
        var notes: [String] = []
        let reading = XMPFields(dateTimeOriginal: original, dateCreated: created).captureTime(
            now: self.now, notes: &notes)
        return (reading, notes)
    }

    func wall(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0, _ ms: Int = 0) -> LocalDateTime {
        LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s, millisecond: ms)
    }

    @Test("Each writer's form of a time is read, with its offset and fraction when written")
    func forms() {
        let cases: [(String, LocalDateTime, Int?)] = [
            // Lightroom and Camera Raw: ISO 8601 with a fraction and an offset.
            ("2019-05-12T10:11:12.34+02:00", self.wall(2019, 5, 12, 10, 11, 12, 340), 7_200),
            // exiftool and digiKam: ISO 8601, with or without an offset.
            ("2019-05-12T10:11:12-07:00", self.wall(2019, 5, 12, 10, 11, 12), -25_200),
            ("2019-05-12T10:11:12", self.wall(2019, 5, 12, 10, 11, 12), nil),
            ("2019-05-12T10:11:12Z", self.wall(2019, 5, 12, 10, 11, 12), 0),
            // The XMP specification lets the seconds go.
            ("2019-05-12T10:11+05:45", self.wall(2019, 5, 12, 10, 11), 20_700),
            // darktable: EXIF's own form, sometimes with milliseconds.
            ("2019:05:12 10:11:12", self.wall(2019, 5, 12, 10, 11, 12), nil),
            ("2019:05:12 10:11:12.250", self.wall(2019, 5, 12, 10, 11, 12, 250), nil),
            ("  2019-05-12T10:11:12.123456+01:00\n", self.wall(2019, 5, 12, 10, 11, 12, 123), 3_600),
        ]
        for (text, wall, offset) in cases {
            let (reading, notes) = self.read(text)
            #expect(reading?.wall == wall, "\(text)")
            #expect(reading?.offsetSeconds == offset, "\(text)")
            #expect(reading?.property == "exif:DateTimeOriginal")
            #expect(notes.isEmpty, "\(text): \(notes)")
        }
    }

    @Test("What is not a usable time is refused with the reason, and photoshop:DateCreated stands in")
    func refusals() {
        let cases: [(String, String)] = [
            ("2019-05-12", "a day without a time"),
            ("2019-05", "not a date and time"),
            ("yesterday", "not a date and time"),
            ("2019-05-12T10", "not a date and time"),
            ("2019-05-12T10:11:12+2", "its offset is not Z or ±HH:MM"),
            ("2019-05-12T10:11:12+15:00", "its offset is not Z or ±HH:MM"),
            ("2019-02-30T10:11:12", "no such date or time"),
            ("1850-05-12T10:11:12", "before 1900"),
            ("2026-01-03T10:11:12Z", "more than a day in the future"),
        ]
        for (text, why) in cases {
            let (reading, notes) = self.read(text)
            #expect(reading == nil, "\(text)")
            #expect(notes.count == 1 && notes[0].contains(why), "\(text): \(notes)")
        }
        let (fallback, notes) = self.read("0000:00:00 00:00:00", created: "2019-05-12T10:11:12+02:00")
        #expect(fallback?.property == "photoshop:DateCreated")
        #expect(fallback?.offsetSeconds == 7_200)
        #expect(notes.count == 1 && notes[0].hasPrefix("XMP exif:DateTimeOriginal"))
    }

    @Test("GPS coordinates in XMP's degrees-and-minutes forms, signed by their hemisphere")
    func positions() throws {
        func position(_ latitude: String, _ longitude: String) -> GeoPosition? {
            var notes: [String] = []
            return XMPFields(gpsLatitude: latitude, gpsLongitude: longitude).gpsPosition(notes: &notes)
        }
        let paris = try #require(position("48,51.4512N", "2,21.0504E"))
        #expect(abs(paris.latitude - 48.857_52) < 1e-6 && abs(paris.longitude - 2.350_84) < 1e-6)
        let sydney = try #require(position("33,52,4.8S", "151,12,36W"))
        #expect(abs(sydney.latitude + 33.868) < 1e-6 && abs(sydney.longitude + 151.21) < 1e-6)
        #expect(position("48.5N", "2.25e")?.longitude == 2.25)
        for (latitude, longitude) in [
            ("48,51.45", "2,21E"), ("48,61N", "2,21E"), ("91,0N", "2,21E"), ("48,51N", "181,0E"), ("N", "E"),
            ("48,,1N", "2,21E"), ("4-8,51N", "2,21E"), ("48,51N", "2,21N"), ("0,0N", "0,0E"),
        ] {
            #expect(position(latitude, longitude) == nil, "\(latitude) \(longitude)")
        }
    }
}

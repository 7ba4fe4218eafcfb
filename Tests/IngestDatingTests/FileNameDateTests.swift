import Foundation
import IngestCore
import IngestDating
import Testing

@Suite struct FileNameDateTests {
    let now = RFC3339.parse("2026-01-01T00:00:00Z")!

    func wall(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0, _ ms: Int = 0) -> LocalDateTime
    {
        LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s, millisecond: ms)
    }

    @Test("Each pattern gives its reading: Pixel in UTC, phones and screenshots local, WhatsApp a day")
    func patterns() {
        let cases: [(String, FileNameDate.Reading)] = [
            ("PXL_20240504_131617123.jpg", .utc(self.wall(2024, 5, 4, 13, 16, 17, 123))),
            ("PXL_20240504_131617123.MP.jpg", .utc(self.wall(2024, 5, 4, 13, 16, 17, 123))),
            ("IMG_20240504_151617.jpg", .local(self.wall(2024, 5, 4, 15, 16, 17))),
            ("img_20240504_151617_HDR.jpg", .local(self.wall(2024, 5, 4, 15, 16, 17))),
            ("VID_20240504_151617.mp4", .local(self.wall(2024, 5, 4, 15, 16, 17))),
            ("PANO_20240504_151617.jpg", .local(self.wall(2024, 5, 4, 15, 16, 17))),
            ("Screenshot_20240504-151617.png", .local(self.wall(2024, 5, 4, 15, 16, 17))),
            ("Screenshot_20240504-151617_Chrome.jpg", .local(self.wall(2024, 5, 4, 15, 16, 17))),
            ("2024-05-04 15.16.17.jpg", .local(self.wall(2024, 5, 4, 15, 16, 17))),
            ("IMG-20240504-WA0007.jpg", .day(self.wall(2024, 5, 4))),
            ("VID-20240504-WA0012.mp4", .day(self.wall(2024, 5, 4))),
        ]
        for (name, reading) in cases {
            #expect(FileNameDate.parse(name, now: self.now)?.reading == reading, "\(name)")
        }
        #expect(FileNameDate.parse("PXL_20240504_131617123.jpg", now: self.now)?.pattern == "PXL_YYYYMMDD_HHMMSSmmm")
    }

    @Test("Names that only look like dates are not dates")
    func notDates() {
        for name in [
            "IMG_1234.jpg", "IMG_20241399_151617.jpg", "IMG_20240230_101010.jpg", "IMG_20240504_256161.jpg",
            "IMG_19850504_151617.jpg", "IMG_20260105_120000.jpg", "IMG_20240504_1516.jpg", "IMG_20240504_1516171.jpg",
            "PXL_20240504_131617.jpg", "IMG-20240504-WA.jpg", "IMG-20240504.jpg", "DSC_20240504_151617.jpg",
            "2024-05-04.jpg", "2024-05-04 15.16.jpg", "holiday 2024-05-04 15.16.17.jpg", "", "IMG_", "PXL_2024",
        ] {
            #expect(FileNameDate.parse(name, now: self.now) == nil, "\(name)")
        }
        // A day ahead is allowed (a clock set a zone early), two are not.
        #expect(FileNameDate.parse("IMG_20260101_230000.jpg", now: self.now) != nil)
        #expect(FileNameDate.parse("IMG_20260102_230000.jpg", now: self.now) == nil)
    }

    @Test("A file with no date of its own is dated by its name, by each pattern's zone rule")
    func resolved() throws {
        let berlin = CaptureTimeResolver(assumedZone: TimeZone(identifier: "Europe/Berlin")!, now: self.now)
        let mtime = RFC3339.parse("2024-06-01T10:00:00Z")!
        let none = CaptureTime(instant: mtime, source: .fileMTime)
        let pixel = berlin.named(none, path: "/a/PXL_20240504_131617123.jpg", fileModified: mtime)
        #expect(pixel.source == .fileName)
        #expect(pixel.instant == RFC3339.parse("2024-05-04T13:16:17.123Z")!, "UTC, whatever the zone")
        let phone = berlin.named(none, path: "/a/IMG_20240504_151617.jpg", fileModified: mtime)
        #expect(phone.instant == RFC3339.parse("2024-05-04T13:16:17Z")!, "local time in Berlin, summer: +02:00")
        #expect(phone.assumedZone == "Europe/Berlin")

        let sameDay = RFC3339.parse("2024-05-04T18:30:00Z")!  // 20:30 in Berlin
        let whatsApp = berlin.named(
            CaptureTime(instant: sameDay, source: .fileMTime), path: "/a/IMG-20240504-WA0007.jpg",
            fileModified: sameDay)
        #expect(whatsApp.source == .fileNameMTime)
        #expect(whatsApp.instant == sameDay)
        let lateNight = RFC3339.parse("2024-05-04T22:30:00Z")!  // 00:30 on the 5th in Berlin
        let otherDay = berlin.named(
            CaptureTime(instant: lateNight, source: .fileMTime), path: "/a/IMG-20240504-WA0007.jpg",
            fileModified: lateNight)
        #expect(otherDay.source == .fileNameDay)
        #expect(otherDay.wholeDay?.lowerBound == RFC3339.parse("2024-05-03T22:00:00Z")!)
        let last = try #require(otherDay.wholeDay?.upperBound)
        #expect(abs(last.timeIntervalSince(RFC3339.parse("2024-05-04T22:00:00Z")!) + 0.001) < 1e-6)
        #expect(otherDay.notes.contains { $0.contains("dated to the whole day") })

        // A time in the file wins; --no-name-dates leaves the modification time.
        let exif = CaptureTime(instant: mtime, source: .exifOffset)
        #expect(berlin.named(exif, path: "/a/PXL_20240504_131617123.jpg", fileModified: mtime) == exif)
        var blind = berlin
        blind.readsNames = false
        #expect(blind.named(none, path: "/a/PXL_20240504_131617123.jpg", fileModified: mtime) == none)
    }
}

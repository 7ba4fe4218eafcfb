import Foundation
import IngestCore
import IngestDating
import Testing

/// The parse step alone: what each field says, or why it was refused. The resolver's choice
/// among them is in CaptureTimeResolverTests.
@Suite struct ExifTimeFieldsTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15

    @Test("Wall times are read with their sub-seconds; what no camera meant is refused with why")
    func wallTimes() {
        var notes: [String] = []
        let fields = ExifTimeFields(dateTimeOriginal: "2024:07:14 18:30:05", subSecTimeOriginal: "4567")
        let wall = fields.originalTime(now: self.now, notes: &notes)
        #expect(wall?.description.hasPrefix("2024-07-14") == true)
        #expect(wall?.millisecond == 456)
        #expect(notes.isEmpty)
        for (text, why) in [
            ("0000:00:00 00:00:00", "all zero"), ("    :  :     :  :  ", "blank"),
            ("2024:02:30 10:00:00", "no such date or time"),
            ("1850:01:01 10:00:00", "before 1900"), ("2031:01:01 10:00:00", "more than a day in the future"),
            ("14.07.2024 18:30", "not YYYY:MM:DD HH:MM:SS"),
        ] {
            var refused: [String] = []
            #expect(ExifTimeFields(dateTimeDigitized: text).digitizedTime(now: self.now, notes: &refused) == nil)
            #expect(
                refused.count == 1 && refused[0].hasPrefix("DateTimeDigitized") && refused[0].hasSuffix(why), "\(text)")
        }
    }

    @Test("A GPS fix is an instant only with a valid date, time and status")
    func gpsInstant() {
        let stamp = [ExifRational(16, 1), ExifRational(30, 1), ExifRational(5, 1)]
        var notes: [String] = []
        let fix = ExifTimeFields(gpsDateStamp: "2024:07:14", gpsTimeStamp: stamp)
        #expect(fix.gpsInstant(now: self.now, notes: &notes) == Date(timeIntervalSince1970: 1_720_974_605))
        let void = ExifTimeFields(gpsDateStamp: "2024:07:14", gpsTimeStamp: stamp, gpsStatus: "V")
        #expect(void.gpsInstant(now: self.now, notes: &notes) == nil)
        let zero = ExifTimeFields(gpsDateStamp: "2024:07:14", gpsTimeStamp: [ExifRational(16, 0)] + stamp.dropFirst())
        #expect(zero.gpsInstant(now: self.now, notes: &notes) == nil)
        #expect(
            notes == [
                "GPS time refused: GPSStatus is void",
                "GPSTimeStamp refused: not three rationals with non-zero denominators",
            ])
    }

    @Test("A position needs both coordinates and hemispheres; 0°, 0° is no fix")
    func gpsPosition() {
        let degrees = [ExifRational(48, 1), ExifRational(51, 1), ExifRational(30, 1)]
        var notes: [String] = []
        let paris = ExifTimeFields(
            gpsLatitudeRef: "N", gpsLatitude: degrees, gpsLongitudeRef: "E",
            gpsLongitude: [ExifRational(2, 1), ExifRational(21, 1), ExifRational(0, 1)])
        let position = paris.gpsPosition(notes: &notes)
        #expect(abs((position?.latitude ?? 0) - 48.858333) < 1e-5)
        #expect(abs((position?.longitude ?? 0) - 2.35) < 1e-9)
        let zeros = [ExifRational(0, 1), ExifRational(0, 1), ExifRational(0, 1)]
        let noFix = ExifTimeFields(gpsLatitudeRef: "N", gpsLatitude: zeros, gpsLongitudeRef: "E", gpsLongitude: zeros)
        #expect(noFix.gpsPosition(notes: &notes) == nil)
        let noHemisphere = ExifTimeFields(gpsLatitude: degrees, gpsLongitude: degrees)
        #expect(noHemisphere.gpsPosition(notes: &notes) == nil)
        #expect(
            notes == [
                "GPS position 0°, 0° refused: written for no fix",
                "GPS position refused: GPSLatitudeRef or GPSLongitudeRef is not N/S and E/W",
            ])
    }
}

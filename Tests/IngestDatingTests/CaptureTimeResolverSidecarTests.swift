import Foundation
import IngestCore
import IngestDating
import Testing

@Suite struct CaptureTimeResolverSidecarTests {
    let resolver = CaptureTimeResolver(
        assumedZone: TimeZone(identifier: "Europe/Berlin")!, now: RFC3339.parse("2026-01-01T00:00:00Z")!)
    let modified = RFC3339.parse("2025-01-01T00:00:00Z")!
    /// A camera an hour slow, with its offset: 10:11:12+02:00.
    let exif = ExifTimeFields(dateTimeOriginal: "2019:05:12 10:11:12", offsetTimeOriginal: "+02:00")

    @Test("The sidecar's time wins over the EXIF's, and the notes say by how much they differ")
    func sidecarWins() {
        let own = self.resolver.resolve(self.exif, fileModified: self.modified)
        let xmp = XMPFields(dateTimeOriginal: "2019-05-12T11:11:12.50+02:00")
        let capture = self.resolver.sidecar(xmp, over: own, exif: self.exif)
        #expect(capture.source == .xmpSidecar)
        #expect(RFC3339.format(capture.instant) == "2019-05-12T09:11:12.500Z")
        #expect(capture.offset == "+02:00")
        #expect(capture.notes.contains { $0.contains("differs from the file's own time (exif-offset) by +01:00:00") })

        // Within a second, the two agree: no note.
        let same = self.resolver.sidecar(
            XMPFields(dateTimeOriginal: "2019-05-12T10:11:12.40+02:00"), over: own, exif: self.exif)
        #expect(same.notes.isEmpty)
    }

    @Test("Without an offset, the sidecar's wall time is read in the zone rules' zone; no clock offset moves it")
    func zoneRules() {
        let undated = CaptureTime(instant: self.modified, source: .fileMTime)
        let capture = self.resolver.sidecar(
            XMPFields(dateTimeOriginal: "2019:07:01 12:00:00"), over: undated, exif: nil)
        #expect(capture.source == .xmpSidecar)
        #expect(capture.assumedZone == "Europe/Berlin")
        #expect(RFC3339.format(capture.instant) == "2019-07-01T10:00:00Z")
        #expect(capture.notes.isEmpty, "a file with no time of its own has nothing to disagree with")
        #expect(!CaptureSource.xmpSidecar.readsCameraClock)

        // A camera an hour slow in Tokyo (11:00 at 03:00 UTC): its GPS fix reads the corrected
        // time in the sidecar as +09:00.
        let tokyo = ExifTimeFields(
            dateTimeOriginal: "2019:07:01 11:00:00", gpsDateStamp: "2019:07:01",
            gpsTimeStamp: [ExifRational(3, 1), ExifRational(0, 1), ExifRational(5, 1)])
        let fixed = self.resolver.sidecar(
            XMPFields(dateTimeOriginal: "2019-07-01T12:00:00"),
            over: self.resolver.resolve(tokyo, fileModified: self.modified), exif: tokyo)
        #expect(fixed.offset == "+09:00")
        #expect(RFC3339.format(fixed.instant) == "2019-07-01T03:00:00Z")
    }

    @Test("A sidecar with no usable time leaves the file's own, with the reason in the notes")
    func noTime() {
        let own = self.resolver.resolve(self.exif, fileModified: self.modified)
        let capture = self.resolver.sidecar(XMPFields(dateTimeOriginal: "2019-05-12"), over: own, exif: self.exif)
        #expect(capture.source == .exifOffset)
        #expect(capture.instant == own.instant)
        #expect(capture.notes == ["XMP exif:DateTimeOriginal \"2019-05-12\" refused: a day without a time"])
        #expect(self.resolver.sidecar(XMPFields(), over: own, exif: self.exif) == own)
    }
}

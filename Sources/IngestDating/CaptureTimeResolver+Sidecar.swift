import Foundation
import IngestCore

extension CaptureTimeResolver {
    /// The capture time an XMP sidecar gives (``XMPFields``), over `capture`, the one the file's own
    /// metadata gave; `capture` itself when the sidecar holds no usable time.
    ///
    /// The sidecar wins: it is where Lightroom, darktable and the others keep a person's
    /// correction. Its offset, when written, makes the instant; otherwise the zone rules read its
    /// wall time as they read a camera's (the GPS fix of `exif`, the sidecar's position else the
    /// file's, the assumed zone). A sidecar's time is not the camera's clock, so no clock offset
    /// moves it. When it and the file's own time differ by more than a second, the notes say by
    /// how much.
    public func sidecar(_ xmp: XMPFields, over capture: CaptureTime, exif: ExifTimeFields?) -> CaptureTime {
        var notes = capture.notes
        let exif = exif ?? ExifTimeFields()
        var position = xmp.gpsPosition(notes: &notes)
        guard let reading = xmp.captureTime(now: self.now, notes: &notes) else {
            var unchanged = capture
            unchanged.notes = notes
            return unchanged
        }
        var dated: CaptureTime
        if let offset = reading.offsetSeconds {
            dated = CaptureTime(
                instant: reading.wall.instant(offsetSeconds: offset), localTime: reading.wall, offsetSeconds: offset,
                source: .xmpSidecar, notes: notes)
        } else {
            var unused: [String] = []
            let gps = exif.gpsInstant(now: self.now, notes: &unused)
            if position == nil { position = exif.gpsPosition(notes: &unused) }
            dated = self.resolve(reading.wall, offset: nil, "", exif, gps, notes, position: position)
            dated.source = .xmpSidecar
        }
        if capture.source != .fileMTime {
            let difference = dated.instant.timeIntervalSince(capture.instant)
            if abs(difference) > 1 {
                dated.notes.append(
                    "the XMP sidecar's \(reading.property) differs from the file's own time (\(capture.sourceName)) "
                        + "by \(ClockOffset.format(Int(difference))); the sidecar's was taken")
            }
        }
        return dated
    }
}

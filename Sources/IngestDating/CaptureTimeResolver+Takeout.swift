import Foundation
import IngestCore

extension CaptureTimeResolver {
    /// The capture time a Google Takeout JSON (``TakeoutFields``) gives, over `capture`, the one
    /// the file's own metadata gave.
    ///
    /// Google's instant is UTC but says nothing of the zone, and for a file with a camera time it
    /// is only that time read in some zone by Google. So the file's own time wins where it
    /// carries its zone (an offset, a GPS fix or position, a video's UTC). Where the file's clock
    /// has no zone (read in the assumed one), the JSON's instant gives the offset, checked as a
    /// GPS fix is: a whole number of quarter hours within ±14 h, or it is not taken. Where the
    /// file has no time of its own (only its mtime; its name is not read then), the JSON's instant is the time.
    public func takeout(_ json: TakeoutFields, over capture: CaptureTime) -> CaptureTime {
        var notes = capture.notes
        guard let instant = json.takenAt(now: self.now, notes: &notes) else {
            var unchanged = capture
            unchanged.notes = notes
            return unchanged
        }
        switch capture.source {
        case .exifAssumedZone:
            // Google read the camera's own clock, before any clock offset corrected it.
            guard let wall = capture.localTime, let clock = capture.cameraTime else { return capture }
            var unused: [String] = []
            guard let offset = self.offsetFromGPS(wall: clock, gps: instant, notes: &unused) else {
                var kept = capture
                kept.notes =
                    notes + [
                        "the Takeout JSON's photoTakenTime is \(Int(clock.secondsAsIfUTC - instant.timeIntervalSince1970)) s "
                            + "from the camera's clock, not a zone's offset: the assumed zone was kept"
                    ]
                return kept
            }
            var dated = CaptureTime(
                instant: wall.instant(offsetSeconds: offset), localTime: wall, offsetSeconds: offset,
                source: .takeoutJSON, notes: notes)
            dated.clockOffset = capture.clockOffset
            return dated
        case .fileMTime:
            // Before the name is read (``named(_:path:fileModified:)``): Google's instant is the better witness.
            return CaptureTime(instant: instant, source: .takeoutJSON, notes: notes)
        default:
            let difference = capture.instant.timeIntervalSince(instant)
            if abs(difference) > 60 {
                var kept = capture
                kept.notes.append(
                    "the Takeout JSON's photoTakenTime differs from the file's own time (\(capture.sourceName)) by "
                        + "\(ClockOffset.format(Int(difference.rounded()))); the file's was kept")
                return kept
            }
            return capture
        }
    }
}

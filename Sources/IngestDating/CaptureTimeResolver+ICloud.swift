import Foundation
import IngestCore

extension CaptureTimeResolver {
    /// The capture time an iCloud export's `Photo Details.csv` gives (`seconds`, UTC to the
    /// minute) over `capture`, the one the file's own metadata gave: only a file with no time of
    /// its own (its mtime, before its name is read) takes it, since a camera's or phone's own
    /// time is to the second and the CSV's only to the minute.
    public func icloud(_ seconds: Int64, over capture: CaptureTime) -> CaptureTime {
        guard capture.source == .fileMTime else { return capture }
        let instant = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard instant <= self.now.addingTimeInterval(86_400) else {
            var kept = capture
            kept.notes.append("the iCloud Photo Details.csv time refused: more than a day in the future")
            return kept
        }
        return CaptureTime(
            instant: instant, source: .icloudCSV,
            notes: capture.notes + ["dated to the minute by iCloud's Photo Details.csv"])
    }
}

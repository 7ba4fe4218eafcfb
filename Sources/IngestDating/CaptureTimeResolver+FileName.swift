import Foundation
import IngestCore

extension CaptureTimeResolver {
    /// The capture time the file's name gives (``FileNameDate``), for a file `capture` dated by
    /// nothing but its modification time; `capture` itself when the name gives none, or names
    /// are not read (`--no-name-dates`).
    ///
    /// A local time is read in the assumed zone, as a camera's clock without an offset is. A day
    /// alone (WhatsApp) takes the modification time when that falls on the day: a file copied
    /// off the phone the day it came keeps its time; otherwise the file is dated to the day.
    public func named(_ capture: CaptureTime, path: String, fileModified: Date) -> CaptureTime {
        guard self.readsNames, capture.source == .fileMTime else { return capture }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let named = FileNameDate.parse(name, now: self.now) else { return capture }
        var notes = capture.notes
        let zone = self.assumedZone
        switch named.reading {
        case .utc(let wall):
            return CaptureTime(
                instant: wall.instant(offsetSeconds: 0), localTime: wall, offsetSeconds: 0, source: .fileName,
                notes: notes)
        case .local(let wall):
            let (offset, flag) = Self.offset(of: wall, in: zone)
            if let flag { notes.append(flag) }
            return CaptureTime(
                instant: wall.instant(offsetSeconds: offset), localTime: wall, offsetSeconds: offset,
                source: .fileName, assumedZone: zone.name, notes: notes)
        case .day(let day):
            let modifiedOffset = zone.secondsFromGMT(for: fileModified)
            let modified = LocalDateTime(fileModified, offsetSeconds: modifiedOffset)
            if (modified.year, modified.month, modified.day) == (day.year, day.month, day.day) {
                return CaptureTime(
                    instant: fileModified, localTime: modified, offsetSeconds: modifiedOffset,
                    source: .fileNameMTime, assumedZone: zone.name, notes: notes)
            }
            let offset = Self.offset(of: day, in: zone).seconds
            notes.append(
                "the name gives the day only (\(named.pattern)) and the file was modified on another day: "
                    + "dated to the whole day")
            return CaptureTime(
                instant: day.instant(offsetSeconds: offset), localTime: day, offsetSeconds: offset,
                source: .fileNameDay, assumedZone: zone.name, notes: notes)
        }
    }
}

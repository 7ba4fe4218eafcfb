import Foundation
import IngestCore

/// Videos: the fields of their `moov` box to a UTC ``CaptureTime``.
///
/// The rules, first that holds wins:
/// 1. Apple's creation date key, which carries the offset of the phone's clock (`quicktime-offset`);
/// 2. the `mvhd` creation time, taken as UTC as the QuickTime specification defines it, and as
///    exiftool reads it with `-api QuickTimeUTC` (`quicktime-utc`). Some cameras write local time
///    there instead; nothing in the file says which, so such a video is off by its zone's offset
///    (docs/capture-time.md says so);
/// 3. the user-data date (`©day`, `date`) when it names its zone (`quicktime-userdata`);
/// 4. the file's mtime.
/// A creation time of 0 (1904-01-01) or before 1970 is no date.
///
/// The position a video names (ISO 6709) never moves its instant; where the zone file has its zone,
/// it names the zone, and gives a UTC `mvhd` time its local time and offset there.
extension CaptureTimeResolver {
    /// Seconds from QuickTime's epoch (1904-01-01) to Unix's.
    static let quickTimeEpochOffset: UInt64 = 2_082_844_800

    /// The capture time of a video's `moov` fields; `clockOffset` as for a photo, asked with the
    /// wall clock the camera kept (its UTC time where it wrote no other), and applied to the
    /// instant the rules found.
    public func resolve(
        _ fields: QuickTimeFields, fileModified: Date, clockOffset: (LocalDateTime) -> Int? = { _ in nil }
    ) -> CaptureTime {
        var capture = self.instant(fields, fileModified: fileModified)
        if capture.source != .fileMTime,
            let seconds = clockOffset(capture.localTime ?? LocalDateTime(capture.instant, offsetSeconds: 0))
        {
            capture = capture.corrected(by: seconds)
        }
        guard let location = fields.location, capture.source != .fileMTime, self.zones != nil else { return capture }
        return self.placed(capture, location: location)
    }

    /// `capture` with the zone at the video's `location`.
    ///
    /// A UTC time gains the zone's local time and offset. A time with its own offset gains the
    /// zone's name where the zone had that offset then, and a note where it did not (the file's
    /// offset stands).
    func placed(_ capture: CaptureTime, location: String) -> CaptureTime {
        var capture = capture
        guard let position = GeoPosition(iso6709: location) else {
            capture.notes.append("location \"\(location)\" refused: not an ISO 6709 position")
            return capture
        }
        guard !position.isNoFix else {
            capture.notes.append("location 0°, 0° refused: written for no fix")
            return capture
        }
        guard let (name, zone) = self.zone(at: position, notes: &capture.notes) else { return capture }
        let offset = zone.secondsFromGMT(for: capture.instant)
        if capture.source == .quickTimeUTC {
            capture.localTime = LocalDateTime(capture.instant, offsetSeconds: offset)
            capture.offsetSeconds = offset
            capture.zone = name
        } else if capture.offsetSeconds == offset {
            capture.zone = name
        } else {
            capture.notes.append(
                "the zone at \(position), \(name), was \(UTCOffset.format(offset)) then, not the "
                    + "\(capture.offset ?? "no offset") the file names: the file's offset stands")
        }
        return capture
    }

    /// The instant from the first rule that holds (above).
    func instant(_ fields: QuickTimeFields, fileModified: Date) -> CaptureTime {
        var notes: [String] = []
        // A clock reading with the offset it names, as the capture time from `source`.
        func zoned(_ text: String?, _ source: CaptureSource, refused: String) -> CaptureTime? {
            guard let text else { return nil }
            guard let (wall, offset) = Self.zonedTime(text) else {
                notes.append("\(refused) \"\(text)\" refused: it names no zone, or is no valid time")
                return nil
            }
            return CaptureTime(
                instant: wall.instant(offsetSeconds: offset), localTime: wall, offsetSeconds: offset, source: source,
                notes: notes)
        }
        if let apple = zoned(fields.appleCreationDate, .quickTimeOffset, refused: "com.apple.quicktime.creationdate") {
            return apple
        }
        switch fields.movieCreated {
        case nil:
            notes.append("no mvhd creation time")
        case 0:
            notes.append("mvhd creation time is 0 (unset)")
        case let created? where created < Self.quickTimeEpochOffset:
            notes.append("mvhd creation time is before 1970: no date")
        case let created?:
            // Compared as seconds before any Date is made: a 64-bit time can lie far past any calendar.
            let seconds = created - Self.quickTimeEpochOffset
            if Double(seconds) > self.now.timeIntervalSince1970 + 86_400 {
                notes.append("mvhd creation time is more than a day in the future: no date")
            } else {
                return CaptureTime(
                    instant: Date(timeIntervalSince1970: TimeInterval(seconds)), offsetSeconds: 0,
                    source: .quickTimeUTC,
                    notes: notes)
            }
        }
        if let userData = zoned(fields.userDataDate, .quickTimeUserData, refused: "user-data date") {
            return userData
        }
        return CaptureTime(instant: fileModified, source: .fileMTime, notes: notes)
    }

    /// `2019-07-24T11:25:40+0300`, `…+03:00`, `…Z`, with optional fractional seconds: the wall time
    /// and its offset; nil without a zone or when it is no valid time.
    static func zonedTime(_ text: String) -> (LocalDateTime, Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ start: Int, _ width: Int) -> Int? {
            guard bytes[start..<start + width].allSatisfy(isDigit) else { return nil }
            return Int(String(decoding: bytes[start..<start + width], as: UTF8.self))
        }
        let separators: [(Int, [UInt8])] = [
            (4, [UInt8(ascii: "-"), UInt8(ascii: ":")]), (7, [UInt8(ascii: "-"), UInt8(ascii: ":")]),
            (10, [UInt8(ascii: "T"), UInt8(ascii: " ")]), (13, [UInt8(ascii: ":")]), (16, [UInt8(ascii: ":")]),
        ]
        guard separators.allSatisfy({ $0.1.contains(bytes[$0.0]) }),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        var index = 19
        var millisecond = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            let digits = String(decoding: bytes[start..<min(index, start + 3)], as: UTF8.self)
            millisecond = (Int(digits) ?? 0) * [100, 10, 1][digits.count - 1]
        }
        let zone = String(decoding: bytes[index...], as: UTF8.self)
        let offset: Int?
        if zone == "Z" {
            offset = 0
        } else if zone.utf8.count == 5 {
            offset = UTCOffset.parse(zone.prefix(3) + ":" + zone.suffix(2))
        } else {
            offset = UTCOffset.parse(zone)
        }
        let wall = LocalDateTime(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond)
        guard let offset, wall.isValid else { return nil }
        return (wall, offset)
    }
}

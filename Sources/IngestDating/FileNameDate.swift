import Foundation
import IngestCore

/// A capture time that a file's name gives: phones, messengers and screenshot tools name files
/// after the moment, and their files often carry no EXIF date (or lose it in an export).
///
/// Read only for a file with no usable date of its own. The patterns, each with its zone rule:
///
/// | Name | Example | Zone |
/// |---|---|---|
/// | Pixel `PXL_YYYYMMDD_HHMMSSmmm` | `PXL_20240504_131617123.jpg` | UTC |
/// | `IMG_`, `VID_`, `PANO_`, `Screenshot_` + `YYYYMMDD_HHMMSS` or `YYYYMMDD-HHMMSS` | `IMG_20240504_151617.jpg` | local |
/// | `YYYY-MM-DD HH.MM.SS` | `2024-05-04 15.16.17.jpg` | local |
/// | WhatsApp `IMG-YYYYMMDD-WAnnnn`, `VID-…` | `IMG-20240504-WA0007.jpg` | the day only |
///
/// A year before 1990, or a time more than a day ahead of now, is not a date: `IMG_1234.jpg`
/// and `IMG_20241399_…` are names, nothing more.
public struct FileNameDate: Sendable, Equatable {
    /// What the name says, and how to read it.
    public enum Reading: Sendable, Equatable {
        /// A wall time in UTC.
        case utc(LocalDateTime)
        /// A wall time in the zone the file was made in, which the name does not say.
        case local(LocalDateTime)
        /// A day, with no time (its hour, minute and second are 0).
        case day(LocalDateTime)

        /// The wall time read, whichever rule reads it.
        public var wallTime: LocalDateTime {
            switch self {
            case .utc(let time), .local(let time), .day(let time): time
            }
        }
    }

    public var reading: Reading
    /// The pattern that matched, as the table above names it (`PXL_YYYYMMDD_HHMMSSmmm`).
    public var pattern: String

    /// The date in `name` (a file name, without its folder), or nil when it holds none.
    public static func parse(_ name: String, now: Date) -> FileNameDate? {
        let bytes = Array(name.utf8)
        guard let found = Self.match(bytes) else { return nil }
        let wall = found.reading.wallTime
        guard wall.isValid, wall.year >= 1990, wall.secondsAsIfUTC <= now.timeIntervalSince1970 + 86_400 else {
            return nil
        }
        return found
    }

    static let localPrefixes = ["IMG_", "VID_", "PANO_", "Screenshot_"]

    static func match(_ name: [UInt8]) -> FileNameDate? {
        var scan = NameScanner(name)
        if scan.literal("PXL_"), let day = scan.day(), scan.literal("_"), let time = scan.time(millisecond: true) {
            return FileNameDate(reading: .utc(Self.join(day, time)), pattern: "PXL_YYYYMMDD_HHMMSSmmm")
        }
        for prefix in Self.localPrefixes {
            scan = NameScanner(name)
            if scan.literal(prefix), let day = scan.day(), scan.literal("_") || scan.literal("-"),
                let time = scan.time(millisecond: false)
            {
                return FileNameDate(reading: .local(Self.join(day, time)), pattern: prefix + "YYYYMMDD_HHMMSS")
            }
        }
        for prefix in ["IMG-", "VID-"] {
            scan = NameScanner(name)
            if scan.literal(prefix), let day = scan.day(), scan.literal("-WA"), scan.digits(1) != nil {
                return FileNameDate(reading: .day(day), pattern: prefix + "YYYYMMDD-WAnnnn")
            }
        }
        scan = NameScanner(name)
        if let year = scan.digits(4), scan.literal("-"), let month = scan.digits(2), scan.literal("-"),
            let day = scan.digits(2), scan.literal(" "), let hour = scan.digits(2), scan.literal("."),
            let minute = scan.digits(2), scan.literal("."), let second = scan.digits(2), !scan.atDigit
        {
            let wall = LocalDateTime(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            return FileNameDate(reading: .local(wall), pattern: "YYYY-MM-DD HH.MM.SS")
        }
        return nil
    }

    static func join(_ day: LocalDateTime, _ time: LocalDateTime) -> LocalDateTime {
        LocalDateTime(
            year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute, second: time.second,
            millisecond: time.millisecond)
    }
}

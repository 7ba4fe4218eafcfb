import Foundation

/// A wall-clock reading with no zone attached: what a camera writes into DateTimeOriginal.
///
/// It becomes an instant only together with an offset; keeping the two apart is what lets
/// photoingest say where each part of a capture time came from.
public struct LocalDateTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Fractional seconds, in milliseconds (SubSecTime rarely carries more).
    public var millisecond: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0)
    {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    /// Whether every field lies in its calendar range (February 30th does not).
    public var isValid: Bool {
        (1...12).contains(self.month) && (1...Self.daysIn(month: self.month, year: self.year)).contains(self.day)
            && (0...23).contains(self.hour) && (0...59).contains(self.minute) && (0...59).contains(self.second)
            && (0...999).contains(self.millisecond)
    }

    /// Seconds since 1970-01-01T00:00:00 as if this wall time were UTC.
    public var secondsAsIfUTC: Double {
        let days = Self.daysFromCivil(year: self.year, month: self.month, day: self.day)
        let seconds = days * 86_400 + self.hour * 3_600 + self.minute * 60 + self.second
        return Double(seconds) + Double(self.millisecond) / 1_000
    }

    /// The instant this wall time names at a fixed offset east of UTC.
    public func instant(offsetSeconds: Int) -> Date {
        Date(timeIntervalSince1970: self.secondsAsIfUTC - Double(offsetSeconds))
    }

    /// The wall time of `date` at a fixed offset east of UTC.
    public init(_ date: Date, offsetSeconds: Int) {
        let totalMillis = Int((date.timeIntervalSince1970 * 1_000).rounded(.down)) + offsetSeconds * 1_000
        let millis = ((totalMillis % 1_000) + 1_000) % 1_000
        let totalSeconds = (totalMillis - millis) / 1_000
        let seconds = ((totalSeconds % 86_400) + 86_400) % 86_400
        let days = (totalSeconds - seconds) / 86_400
        let (year, month, day) = Self.civilFromDays(days)
        self.init(
            year: year, month: month, day: day, hour: seconds / 3_600, minute: seconds / 60 % 60,
            second: seconds % 60, millisecond: millis)
    }

    /// The wall time `seconds` later (earlier when negative).
    public func adding(seconds: Int) -> LocalDateTime {
        LocalDateTime(Date(timeIntervalSince1970: self.secondsAsIfUTC + Double(seconds)), offsetSeconds: 0)
    }

    /// ISO 8601 without a zone: `2025-09-27T21:39:00` (with `.123` when there are milliseconds).
    /// Written digit by digit: `String(format:)` went through Foundation's formatter, a few
    /// microseconds each of the several times a stored photo is described.
    public var description: String {
        var text = ""
        text.reserveCapacity(23)
        Self.append(self.year, width: 4, to: &text)
        text += "-"
        Self.append(self.month, width: 2, to: &text)
        text += "-"
        Self.append(self.day, width: 2, to: &text)
        text += "T"
        Self.append(self.hour, width: 2, to: &text)
        text += ":"
        Self.append(self.minute, width: 2, to: &text)
        text += ":"
        Self.append(self.second, width: 2, to: &text)
        if self.millisecond != 0 {
            text += "."
            Self.append(self.millisecond, width: 3, to: &text)
        }
        return text
    }

    /// `value` in decimal, zero-padded to `width` characters as `%0*d` pads it (a sign counts).
    private static func append(_ value: Int, width: Int, to text: inout String) {
        let digits = String(value.magnitude)
        if value < 0 { text += "-" }
        let padding = width - digits.count - (value < 0 ? 1 : 0)
        if padding > 0 { text += String(repeating: "0", count: padding) }
        text += digits
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        lhs.secondsAsIfUTC < rhs.secondsAsIfUTC
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's civil-calendar algorithms: exact for every proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// An offset from UTC written the way EXIF and RFC 3339 write it: `+05:45`, `-07:00`.
public enum UTCOffset {
    /// Formats seconds east of UTC as `±HH:MM`.
    public static func format(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        return String(format: "%@%02d:%02d", sign, magnitude / 3_600, magnitude / 60 % 60)
    }

    /// Parses a strict `±HH:MM` within ±14 h, the only form OffsetTime* may take.
    public static func parse(_ text: some StringProtocol) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            bytes[3] == UInt8(ascii: ":"),
            let hours = Int(String(decoding: bytes[1...2], as: UTF8.self)),
            let minutes = Int(String(decoding: bytes[4...5], as: UTF8.self)),
            bytes[1...2].allSatisfy(isDigit), bytes[4...5].allSatisfy(isDigit),
            minutes < 60
        else { return nil }
        let seconds = hours * 3_600 + minutes * 60
        guard seconds <= 14 * 3_600 else { return nil }
        return bytes[0] == UInt8(ascii: "-") ? -seconds : seconds
    }
}

public func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

import Foundation

/// Reads and writes instants as RFC 3339 text.
///
/// A time with no zone designator is UTC, never local time: parsing event windows as local
/// time is the production bug that silently dropped photos near a window's edges.
public enum RFC3339 {
    /// Parses `2025-09-27T21:00:00Z`, `…+02:00`, `…` with no zone (UTC), fractional seconds,
    /// a space instead of `T`, and a bare date (midnight UTC).
    public static func parse(_ text: String) -> Date? {
        var cursor = Cursor(Array(text.trimmingCharacters(in: .whitespaces).utf8))
        guard let year = cursor.number(4), cursor.expect("-"), let month = cursor.number(2), cursor.expect("-"),
            let day = cursor.number(2)
        else { return nil }
        var time = LocalDateTime(year: year, month: month, day: day)
        var offset = 0
        if !cursor.atEnd {
            guard cursor.expect("T") || cursor.expect("t") || cursor.expect(" "),
                cursor.timeOfDay(into: &time), let parsed = cursor.offset()
            else { return nil }
            offset = parsed
        }
        guard cursor.atEnd, time.isValid else { return nil }
        return time.instant(offsetSeconds: offset)
    }

    /// A reading position in the bytes of a time.
    private struct Cursor {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { self.index >= self.bytes.count }

        /// `width` digits, as a number; nil (and nothing read) otherwise.
        mutating func number(_ width: Int) -> Int? {
            guard self.index + width <= self.bytes.count,
                self.bytes[self.index..<self.index + width].allSatisfy(isDigit)
            else { return nil }
            defer { self.index += width }
            return Int(String(decoding: self.bytes[self.index..<self.index + width], as: UTF8.self))
        }

        /// Reads `character` if it is next.
        mutating func expect(_ character: Character) -> Bool {
            guard !self.atEnd, self.bytes[self.index] == character.asciiValue else { return false }
            self.index += 1
            return true
        }

        /// `HH:MM`, then `:SS` and `.fraction` if they are there (milliseconds kept).
        mutating func timeOfDay(into time: inout LocalDateTime) -> Bool {
            guard let hour = self.number(2), self.expect(":"), let minute = self.number(2) else { return false }
            time.hour = hour
            time.minute = minute
            guard self.expect(":") else { return true }
            guard let second = self.number(2) else { return false }
            time.second = second
            guard self.expect(".") else { return true }
            let start = self.index
            while !self.atEnd, isDigit(self.bytes[self.index]) { self.index += 1 }
            guard self.index > start else { return false }
            let digits = String(decoding: self.bytes[start..<min(self.index, start + 3)], as: UTF8.self)
            time.millisecond = Int(digits.padding(toLength: 3, withPad: "0", startingAt: 0)) ?? 0
            return true
        }

        /// The zone designator: none or `Z` is UTC (0), else `±HH:MM`; nil for anything else.
        mutating func offset() -> Int? {
            guard !self.atEnd else { return 0 }
            if self.expect("Z") || self.expect("z") { return 0 }
            guard let parsed = UTCOffset.parse(String(decoding: self.bytes[self.index...], as: UTF8.self)) else {
                return nil
            }
            self.index = self.bytes.count
            return parsed
        }
    }

    /// Whether `text` (a time or a date) says its offset (`Z`, `+02:00`), rather than leaving it
    /// to be read as UTC.
    public static func namesItsOffset(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count > 10 else { return false }
        let time = trimmed.dropFirst(10)
        return time.hasSuffix("Z") || time.hasSuffix("z") || time.contains("+") || time.contains("-")
    }

    /// The finest step read and written: a millisecond.
    public static let resolution: TimeInterval = 0.001

    /// A window's bound: an RFC 3339 time, or a date alone, which stands for the whole day in UTC
    /// (its first instant as a start, its last as an end, so that `--until 2025-09-28` keeps the 28th).
    public static func windowBound(_ text: String, isEnd: Bool) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let date = self.parse(trimmed) else { return nil }
        let dateAlone = trimmed.utf8.count == 10
        return dateAlone && isEnd ? date.addingTimeInterval(86_400 - self.resolution) : date
    }

    /// Formats an instant in UTC with `Z`, with milliseconds only when there are some.
    public static func format(_ date: Date) -> String {
        LocalDateTime(date, offsetSeconds: 0).description + "Z"
    }
}

import Foundation

/// Reads and writes instants as RFC 3339 text.
///
/// A time with no zone designator is UTC, never local time: parsing event windows as local
/// time is the production bug that silently dropped photos near a window's edges.
public enum RFC3339 {
    /// Parses `2025-09-27T21:00:00Z`, `…+02:00`, `…` with no zone (UTC), fractional seconds,
    /// a space instead of `T`, and a bare date (midnight UTC).
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count, bytes[index..<index + width].allSatisfy(isDigit) else { return nil }
            defer { index += width }
            return Int(String(decoding: bytes[index..<index + width], as: UTF8.self))
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2) else {
            return nil
        }
        var time = LocalDateTime(year: year, month: month, day: day)
        var offset = 0
        if index < bytes.count {
            guard
                bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t")
                    || bytes[index] == UInt8(ascii: " ")
            else { return nil }
            index += 1
            guard let hour = number(2), expect(":"), let minute = number(2) else { return nil }
            time.hour = hour
            time.minute = minute
            if expect(":") {
                guard let second = number(2) else { return nil }
                time.second = second
                if expect(".") {
                    let start = index
                    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                    guard index > start else { return nil }
                    let digits = String(decoding: bytes[start..<min(index, start + 3)], as: UTF8.self)
                    time.millisecond = Int(digits.padding(toLength: 3, withPad: "0", startingAt: 0)) ?? 0
                }
            }
            if index < bytes.count {
                if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
                    index += 1
                } else {
                    guard let parsed = UTCOffset.parse(String(decoding: bytes[index...], as: UTF8.self)) else {
                        return nil
                    }
                    offset = parsed
                    index = bytes.count
                }
            }
        }
        guard index == bytes.count, time.isValid else { return nil }
        return time.instant(offsetSeconds: offset)
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

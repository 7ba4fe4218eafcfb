/// Reads a file name from its start, field by field, for ``FileNameDate``; every read checks
/// the bounds.
public struct NameScanner {
    public let bytes: [UInt8]
    public var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether the next byte is a digit: a field of fixed width followed by one is a longer number.
    public var atDigit: Bool {
        self.position < self.bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self.bytes[self.position])
    }

    /// Takes `text` when the name goes on with it (letters in any case).
    public mutating func literal(_ text: String) -> Bool {
        let expected = Array(text.utf8)
        guard self.bytes.count - self.position >= expected.count else { return false }
        for (offset, byte) in expected.enumerated()
        where Self.lower(self.bytes[self.position + offset]) != Self.lower(byte) {
            return false
        }
        self.position += expected.count
        return true
    }

    /// Takes `count` digits as a number.
    public mutating func digits(_ count: Int) -> Int? {
        guard self.bytes.count - self.position >= count else { return nil }
        var value = 0
        for byte in self.bytes[self.position..<self.position + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        self.position += count
        return value
    }

    /// `YYYYMMDD`.
    public mutating func day() -> LocalDateTime? {
        guard let year = self.digits(4), let month = self.digits(2), let day = self.digits(2) else { return nil }
        return LocalDateTime(year: year, month: month, day: day)
    }

    /// `HHMMSS`, then `mmm` when asked; no digit may follow (a longer number is no time).
    public mutating func time(millisecond: Bool) -> LocalDateTime? {
        guard let hour = self.digits(2), let minute = self.digits(2), let second = self.digits(2) else { return nil }
        let fraction = millisecond ? self.digits(3) : 0
        guard let fraction, !self.atDigit else { return nil }
        return LocalDateTime(
            year: 2000, month: 1, day: 1, hour: hour, minute: minute, second: second, millisecond: fraction)
    }

    /// An ASCII letter in lower case; any other byte as it is (names are compared byte by byte).
    @inlinable public static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Whether `name` ends with `suffix` (lower-case ASCII bytes) in any case, with at least one
    /// byte before it. Byte by byte from the end, without a copy: a walk asks it of every entry.
    @inlinable public static func hasSuffix(_ name: String, lowercased suffix: [UInt8]) -> Bool {
        func test(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count > suffix.count else { return false }
            let start = bytes.count - suffix.count
            for offset in 0..<suffix.count where Self.lower(bytes[start + offset]) != suffix[offset] { return false }
            return true
        }
        return name.utf8.withContiguousStorageIfAvailable(test) ?? Array(name.utf8).withUnsafeBufferPointer(test)
    }
}

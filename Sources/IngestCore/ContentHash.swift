import Foundation

/// The SHA-256 of a file's bytes: the identity of a photo everywhere in photoingest.
///
/// Servers spell hashes in several ways (bare hex, `sha256:`-prefixed, or the composite
/// `hex_size_date`); ``init(parsing:)`` accepts all of them so that comparisons are made
/// on the digest alone.
public struct ContentHash: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 32 digest bytes, kept as four words so that hashing and equality stay cheap
    /// in sets of hundreds of thousands of entries.
    private let words: (UInt64, UInt64, UInt64, UInt64)

    public init<D: Sequence>(digest: D) where D.Element == UInt8 {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count = 0
        for byte in digest {
            precondition(count < 32, "a SHA-256 digest has 32 bytes")
            Self.append(UInt64(byte), bits: 8, at: count / 8, to: &words)
            count += 1
        }
        precondition(count == 32, "a SHA-256 digest has 32 bytes")
        self.words = words
    }

    /// Parses any spelling of a SHA-256 that the PhotoShare API uses; case-insensitive.
    ///
    /// Accepts `abc…` (64 hex digits), `sha256:abc…` and `abc…_<size>_<date>`. A server's list
    /// holds hundreds of thousands of these, so the digits go straight into the words.
    public init?(parsing text: some StringProtocol) {
        // On the bytes, not Characters: a re-run parses one of these per file it passes over.
        var bytes = Substring(text).utf8[...]
        while let first = bytes.first, Self.isSpace(first) { bytes.removeFirst() }
        while let last = bytes.last, Self.isSpace(last) { bytes.removeLast() }
        if bytes.count > 64, bytes.prefix(3).map({ $0 | 0x20 }).elementsEqual("sha".utf8),
            bytes.dropFirst(3).prefix(4).elementsEqual("256:".utf8)
        {
            bytes = bytes.dropFirst(7)
        }
        if let underscore = bytes.firstIndex(of: UInt8(ascii: "_")) {
            bytes = bytes[..<underscore]
        }
        guard bytes.count == 64 else { return nil }
        let parsed = bytes.withContiguousStorageIfAvailable(Self.words(hex:)) ?? Self.words(hex: Array(bytes))
        guard let parsed else { return nil }
        self.words = parsed
    }

    /// The four words of 64 hex digits; nil if any is not one.
    private static func words<Digits: RandomAccessCollection<UInt8>>(hex: Digits) -> (UInt64, UInt64, UInt64, UInt64)?
    where Digits.Index == Int {
        func word(_ index: Int) -> UInt64? {
            var value: UInt64 = 0
            for offset in 0..<16 {
                guard let nibble = Self.nibble(hex[hex.startIndex + index * 16 + offset]) else { return nil }
                value = value << 4 | UInt64(nibble)
            }
            return value
        }
        guard let first = word(0), let second = word(1), let third = word(2), let fourth = word(3) else { return nil }
        return (first, second, third, fourth)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    private static func append(
        _ value: UInt64, bits: UInt64, at word: Int, to words: inout (UInt64, UInt64, UInt64, UInt64)
    ) {
        switch word {
        case 0: words.0 = words.0 << bits | value
        case 1: words.1 = words.1 << bits | value
        case 2: words.2 = words.2 << bits | value
        default: words.3 = words.3 << bits | value
        }
    }

    /// Lowercase hex, 64 characters.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for word in [self.words.0, self.words.1, self.words.2, self.words.3] {
            for shift in stride(from: 60, through: 0, by: -4) {
                out.append(digits[Int((word >> UInt64(shift)) & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The spelling the upload form uses: `sha256:<hex>`.
    public var prefixed: String { "sha256:" + self.hex }

    public var description: String { self.hex }

    public static func == (lhs: ContentHash, rhs: ContentHash) -> Bool {
        lhs.words == rhs.words
    }

    /// The order of the digest bytes (the words are big-endian): what ``KnownHashes`` sorts by.
    public static func < (lhs: ContentHash, rhs: ContentHash) -> Bool {
        lhs.words < rhs.words
    }

    /// All 32 bytes: a server's hash list is input too, and one of crafted hashes that agree on
    /// some words must not turn a set into a list.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.words.0)
        hasher.combine(self.words.1)
        hasher.combine(self.words.2)
        hasher.combine(self.words.3)
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// File names on Linux are bytes, not text: a folder copied from an old Latin-1 system holds names
/// that are not UTF-8. Paths travel through the run as `String`s; this is the one place that maps
/// a name's bytes to a `String` and back without loss.
///
/// A name that is valid UTF-8 is itself. Any other name keeps its ASCII bytes and carries every
/// byte from 0x80 up as the private-use scalar U+10FF00 + byte (the same idea as Python's
/// "surrogateescape", in scalars Swift strings can hold). Valid names that contain those scalars
/// are escaped too, so that the mapping stays one-to-one.
public enum PathBytes {
    static let escapeBase: UInt32 = 0x10_FF00

    /// The path for these bytes (no terminating NUL).
    public static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        // A walk makes one per name: the byte scan of `hasEscapes` spares nearly every name the
        // walk through its scalars.
        if let text = String(validating: bytes, as: UTF8.self), !Self.hasEscapes(text) { return text }
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            scalars.append(Unicode.Scalar(byte < 0x80 ? UInt32(byte) : Self.escapeBase + UInt32(byte))!)
        }
        return String(scalars)
    }

    /// The bytes `path` stands for.
    public static func bytes(_ path: String) -> [UInt8] {
        guard Self.hasEscapes(path) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        for scalar in path.unicodeScalars {
            if Self.isEscape(scalar) {
                bytes.append(UInt8(scalar.value - Self.escapeBase))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with the NUL-terminated bytes of `path`, for system calls.
    public static func withCString<Result>(
        _ path: String, _ body: (UnsafePointer<CChar>) throws -> Result
    ) rethrows -> Result {
        guard Self.hasEscapes(path) else { return try path.withCString(body) }
        let bytes = Self.bytes(path) + [0]
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// `path` for text meant to be read: bytes that are not UTF-8 as `\xNN`, and control
    /// characters (a line break in a name would forge a line of the report) escaped as well.
    public static func printable(_ path: String) -> String {
        // Most paths are printable ASCII: their bytes say so faster than their scalars.
        if path.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return path }
        guard path.unicodeScalars.contains(where: { Self.isEscape($0) || Self.isControl($0) }) else { return path }
        var text = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where Self.isEscape(scalar): text += Self.hex(scalar.value - Self.escapeBase)
            case _ where Self.isControl(scalar): text += Self.hex(scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// `path` for JSON: exact when it is text; bytes that are not UTF-8 as `\xNN`.
    public static func unicode(_ path: String) -> String {
        guard Self.hasEscapes(path) else { return path }
        var text = ""
        for scalar in path.unicodeScalars {
            if Self.isEscape(scalar) {
                text += Self.hex(scalar.value - Self.escapeBase)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    static func hasEscapes(_ path: String) -> Bool {
        // Every escape scalar is encoded with a leading 0xF4: a byte scan finds the common case fast.
        path.utf8.contains(0xF4) && path.unicodeScalars.contains(where: Self.isEscape)
    }

    static func isEscape(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= Self.escapeBase + 0x80 }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: false)
        return "\\x" + (digits.count < 2 ? "0" + digits : digits)
    }
}

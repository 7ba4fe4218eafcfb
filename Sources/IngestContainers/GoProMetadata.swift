import IngestCore

/// Reads the camera body out of a GoPro video's `GPMF` box (in `moov`'s `udta`): GoPro's
/// key-length-value records, each a four-letter key, a type letter, the size of one value and a
/// big-endian count, its values padded to four bytes; `DEVC` and `STRM` records nest more.
/// `CASN` is the camera's serial number, `MINF` its model (exiftool's
/// `GoPro:CameraSerialNumber`, `GoPro:Model`). A GoPro names no maker there.
///
/// A parser of untrusted bytes: a key that is not a key or a value that passes its container
/// ends the walk there, as it ends exiftool's; nesting stops at ``depthLimit``.
public enum GoProMetadata {
    static let depthLimit = 8
    /// The type letter of text (`c`); 0 marks a record that nests others.
    static let text = UInt8(ascii: "c")

    /// The body the `GPMF` box whose payload is `gpmf` names; nil when it names none.
    public static func body(_ reader: ByteReader, gpmf: Range<Int>) -> CameraBody? {
        var body = CameraBody()
        self.walk(reader, gpmf, depth: 0, into: &body)
        return body.isEmpty ? nil : body
    }

    static func walk(_ reader: ByteReader, _ range: Range<Int>, depth: Int, into body: inout CameraBody) {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let key = reader.fourCC(offset)
            guard key.unicodeScalars.allSatisfy({ Self.isKeyCharacter($0) }) else { return }
            let type = reader.u8(offset + 4)
            let size = Int(reader.u8(offset + 5))
            let count = Int(reader.u16be(offset + 6))
            let length = size * count
            offset += 8
            guard length <= range.upperBound - offset else { return }
            let value = offset..<offset + length
            switch (key, type) {
            case ("DEVC", 0), ("STRM", 0):
                if depth < Self.depthLimit { self.walk(reader, value, depth: depth + 1, into: &body) }
            case ("CASN", Self.text):
                body.serial = body.serial ?? self.text(reader, value, size: size, count: count)
            case ("MINF", Self.text):
                body.model = body.model ?? self.text(reader, value, size: size, count: count)
            default:
                break
            }
            offset += (length + 3) & ~3
        }
    }

    /// A key's letters: `A-Z a-z 0-9 - _` and space (a key of four NULs ends the records).
    static func isKeyCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
                || scalar == " ")
    }

    /// Text values: one cut at its first NUL, or, several of more than one byte each, each
    /// trimmed, joined by ", " as exiftool prints a list.
    static func text(_ reader: ByteReader, _ value: Range<Int>, size: Int, count: Int) -> String? {
        guard count > 1 && size > 1 else {
            return reader.slice(value.lowerBound, value.count).flatMap(QuickTimeReader.text)
        }
        let parts = (0..<count).compactMap { index in
            reader.slice(value.lowerBound + index * size, size).flatMap(QuickTimeReader.text)
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

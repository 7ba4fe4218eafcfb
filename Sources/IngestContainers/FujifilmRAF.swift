import IngestCore

/// Fujifilm's RAF container: a fixed header that points at an embedded JPEG (with the camera's
/// EXIF in its APP1 segment) and at the raw data.
public enum FujifilmRAF {
    public static let magic = Array("FUJIFILMCCD-RAW ".utf8)

    /// The embedded JPEG's bytes: its offset and length are big-endian at 84 and 88.
    public static func jpegRange(_ reader: ByteReader) -> Range<Int>? {
        guard reader.count >= 92 else { return nil }
        let offset = Int(reader.u32be(84))
        let length = Int(reader.u32be(88))
        guard reader.slice(offset, length) != nil, length > 0 else { return nil }
        return offset..<offset + length
    }
}

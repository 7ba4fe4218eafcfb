import IngestCore

/// A JPEG marker segment before the scan data: its marker and where its payload lies.
///
/// The one walker of JPEG segments: the EXIF locator and the frame-header reader both go through
/// it. It passes over fill bytes and markers without a length, and stops at the scan, at the end of
/// the image, or at a segment that does not fit.
public struct JPEGSegment: Sendable, Equatable {
    public var marker: UInt8
    /// After the marker and the two length bytes.
    public var payload: Range<Int>

    /// The first segment that `matches`, walking from the start-of-image marker at 0; nil when
    /// the bytes do not start a JPEG or no segment before the scan matches.
    public static func first(in reader: ByteReader, where matches: (JPEGSegment) -> Bool) -> JPEGSegment? {
        guard reader.u8(0) == 0xFF, reader.u8(1) == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= reader.count {
            guard reader.u8(offset) == 0xFF else { return nil }
            let marker = reader.u8(offset + 1)
            if marker == 0xFF {  // fill byte
                offset += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(reader.u16be(offset + 2))
            guard length >= 2, offset + 2 + length <= reader.count else { return nil }
            let segment = JPEGSegment(marker: marker, payload: (offset + 4)..<(offset + 2 + length))
            if matches(segment) { return segment }
            offset += 2 + length
        }
        return nil
    }
}

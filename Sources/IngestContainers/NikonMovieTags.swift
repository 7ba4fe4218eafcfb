import IngestCore

/// Reads the camera body out of a Nikon video's `NCDT` box (in `moov`'s `udta`): its `NCTG`
/// child holds records of a tag number, an EXIF format code, a count and the value, big-endian,
/// one after the other; tag 0x01 is the maker, 0x02 the model and 0x0110A431 the body's serial
/// number (EXIF's BodySerialNumber, 0xA431, under Nikon's prefix; exiftool's `Nikon:SerialNumber`).
///
/// A parser of untrusted bytes: a record whose format is unknown or whose value passes the box
/// ends the walk, as it ends exiftool's.
public enum NikonMovieTags {
    static let make: UInt32 = 0x01
    static let model: UInt32 = 0x02
    static let serial: UInt32 = 0x0110_A431
    /// The bytes of one value of each EXIF format code (1-18; 0 is none).
    static let formatSizes = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4, 2, 8, 8, 8, 8]
    /// EXIF's format code for text.
    static let ascii: UInt16 = 2

    /// The body the `NCDT` box whose payload is `ncdt` names; nil when it names none.
    public static func body(_ reader: ByteReader, ncdt: Range<Int>) -> CameraBody? {
        guard let tags = ISOBox.find("NCTG", in: reader, range: ncdt) else { return nil }
        var body = CameraBody()
        var offset = tags.payload.lowerBound
        let end = tags.payload.upperBound
        while offset + 8 < end {
            let tag = reader.u32be(offset)
            let format = reader.u16be(offset + 4)
            let count = Int(reader.u16be(offset + 6))
            offset += 8
            guard Int(format) < Self.formatSizes.count, Self.formatSizes[Int(format)] > 0 else { break }
            let size = count * Self.formatSizes[Int(format)]
            guard size <= end - offset else { break }
            if format == Self.ascii, let bytes = reader.slice(offset, size) {
                let text = QuickTimeReader.text(bytes)
                switch tag {
                case Self.make: body.make = body.make ?? text
                case Self.model: body.model = body.model ?? text
                case Self.serial: body.serial = body.serial ?? text
                default: break
                }
            }
            offset += size
        }
        return body.isEmpty ? nil : body
    }
}

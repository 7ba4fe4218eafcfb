import IngestCore

/// Reads the camera body out of a Panasonic or Leica video's `PANA` box (in `moov`'s `udta`):
/// the maker at byte 0 (when it is "Panasonic" or "LEICA"), the model at byte 4 or 12, and an
/// EXIF block (a JPEG's start, its APP1) at byte 0x10, 0x4068, 0x4080 or 0x200080, whichever holds
/// one, whose maker note names the body's serial (exiftool's `Panasonic:InternalSerialNumber`).
///
/// A parser of untrusted bytes: the EXIF is walked by ``TIFFStructure``, as a photo's is.
public enum PanasonicMovieTags {
    /// Where models write the EXIF block, per exiftool's PANA table.
    static let exifOffsets = [0x10, 0x4068, 0x4080, 0x20_0080]
    /// A JPEG's SOI and an APP1 marker; its length and `Exif\0\0` follow, then the TIFF header.
    static let jpegStart: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1]

    /// The body the `PANA` box whose payload is `pana` names; nil when it names none.
    public static func body(_ reader: ByteReader, pana: Range<Int>) -> CameraBody? {
        var body = CameraBody()
        for offset in Self.exifOffsets where offset + 12 < pana.count {
            let start = pana.lowerBound + offset
            guard Self.jpegStart.indices.allSatisfy({ reader.u8(start + $0) == Self.jpegStart[$0] }),
                let header = reader.slice(start + 6, 6), ExifLocator.hasExifHeader(header),
                let bytes = reader.slice(start + 12, pana.upperBound - start - 12),
                let tiff = TIFFStructure(bytes)
            else { continue }
            body = MediaIdentity([tiff]).body
            break
        }
        let text = { (offset: Int, length: Int) in
            reader.slice(pana.lowerBound + offset, min(length, max(0, pana.count - offset))).flatMap(
                QuickTimeReader.text)
        }
        let maker = text(0, 22)
        let leica = maker?.hasPrefix("LEICA") == true
        if let maker, leica || maker.hasPrefix("Panasonic") { body.make = body.make ?? maker }
        if !leica {
            // exiftool's condition: six characters before any NUL.
            let model = [text(4, 16), text(12, 16)].compactMap { $0 }.first { $0.unicodeScalars.count >= 6 }
            body.model = body.model ?? model
        }
        return body.isEmpty ? nil : body
    }
}

import IngestCore

/// Reads the body out of a Pentax or Ricoh video's own boxes in `moov`'s `udta`: `PXMN` (and a
/// Pentax Q's `thmb`) hold a Pentax maker note as a JPEG does, `PENTAX \0` (a Ricoh GR III's:
/// `RICOH\0`), the byte order, then its directory, offsets counted from the box's payload (its
/// SerialNumber, 0x0229, is exiftool's `Pentax:SerialNumber`; exiftool reads the GR III's from
/// 13.37); a Ricoh GR's `RMKN` holds a whole TIFF, read as a photo's EXIF is.
///
/// A parser of untrusted bytes: both are walked by ``TIFFStructure``, as a photo's are.
public enum PentaxMovieTags {
    /// The headers of the notes exiftool reads from `PXMN`: Pentax's, and a Ricoh GR III's.
    static let headers = [Array("PENTAX \0".utf8), Array("RICOH\0".utf8)]

    /// The body a `PXMN` or `thmb` box whose payload is `note` names; nil when it holds no Pentax
    /// note or the note names none.
    public static func body(_ reader: ByteReader, note range: Range<Int>, model: String?) -> CameraBody? {
        guard
            Self.headers.contains(where: { header in
                range.count > header.count
                    && header.indices.allSatisfy { reader.u8(range.lowerBound + $0) == header[$0] }
            }),
            let note = MakerNote(
                at: range.lowerBound, count: range.count, in: reader, bigEndian: true, origin: range.lowerBound),
            note.maker == .pentax, let serial = note.serial(model: model)
        else { return nil }
        return CameraBody(serial: serial)
    }

    /// The body the EXIF of a `RMKN` box whose payload is `tiff` names.
    public static func body(_ reader: ByteReader, tiff range: Range<Int>) -> CameraBody? {
        guard let bytes = reader.slice(range.lowerBound, range.count), let tiff = TIFFStructure(bytes) else {
            return nil
        }
        let body = MediaIdentity([tiff]).body
        return body.isEmpty ? nil : body
    }
}

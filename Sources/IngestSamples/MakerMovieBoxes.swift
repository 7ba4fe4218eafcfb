import Foundation
import IngestContainers

/// The boxes in which camera makers name the body in their videos, built byte by byte as
/// exiftool's tables describe them, for the makers of which no clip is at hand: Nikon's `NCDT`,
/// Panasonic's `PANA`, Pentax's `PXMN`, Sony's NonRealTimeMeta; and GoPro's `GPMF` records.
public enum MakerMovieBoxes {
    /// Nikon's `NCDT` holding `NCTG` records (tag, EXIF format, count, value; big-endian): the
    /// maker (0x01), the model (0x02), another tag's number first, and the serial (0x0110A431).
    public static func nikon(make: String, model: String, serial: String) -> [UInt8] {
        func text(_ tag: Int, _ value: String) -> [UInt8] {
            let bytes = Array(value.utf8) + [0]
            return ExifBuilder.be32(tag) + ExifBuilder.be16(2) + ExifBuilder.be16(bytes.count) + bytes
        }
        // A FrameRate-like rational between: the walk must step over other formats.
        let rational =
            ExifBuilder.be32(0x16) + ExifBuilder.be16(5) + ExifBuilder.be16(1)
            + ExifBuilder.be32(30_000) + ExifBuilder.be32(1_001)
        let records = text(0x01, make) + text(0x02, model) + rational + text(0x0110_A431, serial)
        return ExifBuilder.isoBox(
            "NCDT", ExifBuilder.isoBox("NCHD", Array("0100".utf8)) + ExifBuilder.isoBox("NCTG", records))
    }

    /// GoPro's `GPMF` box around `payload`: a real camera's records, or ``goProRecord(_:type:size:count:_:)``'s.
    public static func goPro(payload: [UInt8]) -> [UInt8] { ExifBuilder.isoBox("GPMF", payload) }

    /// One GoPro record: key, type letter, size of a value, count, the values padded to 4 bytes.
    public static func goProRecord(_ key: String, type: UInt8, size: Int, count: Int, _ value: [UInt8]) -> [UInt8] {
        let padded = value + [UInt8](repeating: 0, count: (4 - value.count % 4) % 4)
        return Array(key.utf8) + [type, UInt8(size)] + ExifBuilder.be16(count) + padded
    }

    /// Panasonic's `PANA`: the model at 4, and `exif` (a JPEG's start: SOI and its APP1) at
    /// 0x4068, where the models exiftool names write it.
    public static func panasonic(model: String, exif: [UInt8]) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: 0x4068)
        let name = Array(model.utf8.prefix(15))
        payload.replaceSubrange(4..<4 + name.count, with: name)
        return ExifBuilder.isoBox("PANA", payload + exif)
    }

    /// A Pentax maker note as a Pentax camera puts it in its video's `PXMN` (or a Pentax Q's
    /// `thmb`) box (``pentaxNote(serial:bigEndian:ricoh:)``).
    public static func pentax(_ type: String = "PXMN", serial: String, bigEndian: Bool, ricoh: Bool = false)
        -> [UInt8]
    {
        ExifBuilder.isoBox(type, Self.pentaxNote(serial: serial, bigEndian: bigEndian, ricoh: ricoh))
    }

    /// A Pentax maker note, as in a Pentax's video and a Ricoh GR III's photos and videos:
    /// `PENTAX \0` (the GR III's: `RICOH\0`), the byte order, one directory with SerialNumber
    /// (0x0229), offsets counted from the note's start.
    public static func pentaxNote(serial: String, bigEndian: Bool, ricoh: Bool = false) -> [UInt8] {
        func bytes<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
            withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init)
        }
        let text = Array(serial.utf8) + [0]
        let header = Array((ricoh ? "RICOH\0" : "PENTAX \0").utf8) + Array((bigEndian ? "MM" : "II").utf8)
        // The header, entry count 2, one entry 12, next directory 4: then the text.
        let directory =
            bytes(UInt16(1)) + bytes(UInt16(0x0229)) + bytes(UInt16(2)) + bytes(UInt32(text.count))
            + bytes(UInt32(header.count + 18)) + bytes(UInt32(0))
        return header + directory + text
    }

    /// Sony's top-level `meta` (version and flags, an `nrtm` handler, an `xml ` box) holding a
    /// NonRealTimeMeta document whose `Device` names the body.
    public static func sony(make: String, model: String, serial: String) -> [UInt8] {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <NonRealTimeMeta xmlns="urn:schemas-professionalDisc:nonRealTimeMeta:ver.2.00" \
            xmlns:lib="urn:schemas-professionalDisc:lib:ver.2.00" lastUpdate="2025-09-27T21:39:00+02:00">
            \t<Duration value="30"/>
            \t<CreationDate value="2025-09-27T21:39:00+02:00"/>
            \t<Device manufacturer="\(make)" modelName="\(model)" serialNo="\(serial)"/>
            \t<RecordingMode type="normal" cacheRec="false"/>
            </NonRealTimeMeta>
            """
        let handler = [UInt8](repeating: 0, count: 8) + Array("nrtm".utf8) + [UInt8](repeating: 0, count: 13)
        return ExifBuilder.isoBox(
            "meta",
            [0, 0, 0, 0] + ExifBuilder.isoBox("hdlr", handler)
                + ExifBuilder.isoBox("xml ", [0, 0, 0, 0] + Array(document.utf8)))
    }
}

import IngestCore

/// A still that carries its clip inside (Google's and Samsung's motion photos).
///
/// A JPEG says so in its XMP segment, by the `GCamera` properties `MotionPhoto` (the current
/// format) or `MicroVideo` (the older one), or by the `MotionPhoto_Data` block of Samsung's
/// trailer. That trailer follows the JPEG's end, indexed by an `SEFH` directory that the file's
/// last eight bytes point back to.
/// A HEIC or AVIF motion photo (Samsung's, and Google's format for HEIF) keeps the clip in a
/// top-level `mpvd` box after the image's boxes.
public enum MotionPhoto {
    static let xmpHeader = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// The property, set to 1, as an attribute (either quote) or as an element.
    static let markers: [(name: String, forms: [[UInt8]])] = ["MotionPhoto", "MicroVideo"].map { name in
        (name, ["GCamera:\(name)=\"1\"", "GCamera:\(name)='1'", "<GCamera:\(name)>1<"].map { Array($0.utf8) })
    }

    /// Samsung's trailer block type of the clip (exiftool's `EmbeddedVideoType`, `MotionPhoto_Data`).
    static let samsungClip: UInt16 = 0x0A30

    /// What says the still carries a clip (`XMP GCamera:MotionPhoto`, `Samsung trailer
    /// MotionPhoto_Data`, `HEIF mpvd box`), or nil when nothing does.
    public static func property(in bytes: UnsafeRawBufferPointer, kind: MediaKind) -> String? {
        let reader = ByteReader(bytes)
        switch kind {
        case .jpeg:
            if let property = Self.xmpProperty(reader) { return "XMP " + property }
            return Self.hasSamsungClip(reader) ? "Samsung trailer MotionPhoto_Data" : nil
        case .heic, .avif:
            return Self.hasClipBox(reader) ? "HEIF mpvd box" : nil
        default:
            return nil
        }
    }

    /// Whether a top-level `mpvd` box holds an ISO media file (its first box an `ftyp`). The walk
    /// steps over the boxes by their sizes, so it touches their headers, not the image data.
    static func hasClipBox(_ reader: ByteReader) -> Bool {
        guard let box = ISOBox.find("mpvd", in: reader, range: 0..<reader.count) else { return false }
        return ISOBox.at(box.payload.lowerBound, in: reader, limit: box.payload.upperBound)?.type == "ftyp"
    }

    static func xmpProperty(_ reader: ByteReader) -> String? {
        guard
            let segment = JPEGSegment.first(
                in: reader,
                where: { segment in
                    segment.marker == 0xE1
                        && reader.slice(segment.payload.lowerBound, Self.xmpHeader.count)?.elementsEqual(Self.xmpHeader)
                            == true
                }),
            let xmp = reader.slice(segment.payload.lowerBound, segment.payload.count)
        else { return nil }
        for marker in Self.markers where marker.forms.contains(where: { Self.contains(xmp, $0) }) {
            return "GCamera:\(marker.name)"
        }
        return nil
    }

    /// Whether Samsung's trailer lists a clip. Little-endian: the file ends with the directory's
    /// length and `SEFT`; the directory is `SEFH`, a version, an entry count, then 12-byte entries
    /// (two zero bytes, the block type, the block's distance back from the directory, its size).
    static func hasSamsungClip(_ reader: ByteReader) -> Bool {
        let end = reader.count
        guard end >= 20, reader.fourCC(end - 4) == "SEFT" else { return false }
        let length = Int(reader.u32le(end - 8))
        guard length >= 12, length <= end - 8 else { return false }
        let directory = end - 8 - length
        guard reader.fourCC(directory) == "SEFH" else { return false }
        let entries = min(Int(reader.u32le(directory + 8)), (length - 12) / 12)
        return (0..<entries).contains { index in
            let entry = directory + 12 + index * 12
            let type = UInt16(reader.u8(entry + 2)) | UInt16(reader.u8(entry + 3)) << 8
            let back = Int(reader.u32le(entry + 4))
            let size = Int(reader.u32le(entry + 8))
            return type == Self.samsungClip && back <= directory && size >= 8 && size <= back
        }
    }

    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start] == needle[0] && needle.indices.allSatisfy { haystack[start + $0] == needle[$0] }
        }
    }
}

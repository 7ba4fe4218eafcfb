import IngestCore

/// Canon's CR3: an ISO base media file whose metadata is in `uuid` boxes.
///
/// Inside `moov`, the box of UUID 85c0b687-… holds CMT1 (IFD0), CMT2 (the EXIF IFD), CMT3 (the
/// maker notes) and CMT4 (the GPS IFD), each a TIFF structure of its own. A top-level box of UUID
/// eaf42b5e-… holds `PRVW`, a JPEG preview of about 1620×1080.
public enum CanonCR3 {
    public static let metadataUUID: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]
    static let previewUUID: [UInt8] = [
        0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16,
    ]

    /// A TIFF structure of the file's metadata and the kind of its first directory.
    public struct MetadataBlock {
        public var bytes: UnsafeRawBufferPointer
        public var root: TIFFStructure.DirectoryKind
    }

    /// CMT1, CMT2 and CMT4, those the file has.
    public static func metadata(_ reader: ByteReader) -> [MetadataBlock] {
        guard let moov = ISOBox.find("moov", in: reader, range: 0..<reader.count) else { return [] }
        return self.metadata(reader, moov: moov.payload)
    }

    /// The same of the `moov` box whose contents are `moov`: a CR3's, or a Canon camera's video's,
    /// which carries the same box.
    public static func metadata(_ reader: ByteReader, moov: Range<Int>) -> [MetadataBlock] {
        guard let contents = self.uuidContents(self.metadataUUID, in: reader, range: moov) else { return [] }
        let roots: [String: TIFFStructure.DirectoryKind] = ["CMT1": .main(0), "CMT2": .exif, "CMT4": .gps]
        return ISOBox.children(in: reader, range: contents).compactMap { box in
            guard let root = roots[box.type], let bytes = reader.slice(box.payload.lowerBound, box.payload.count)
            else { return nil }
            return MetadataBlock(bytes: bytes, root: root)
        }
    }

    /// CMT1, CMT2 and CMT4 walked, each with its first directory's kind.
    public static func structures(_ reader: ByteReader) -> [TIFFStructure] {
        self.metadata(reader).compactMap { TIFFStructure($0.bytes, root: $0.root) }
    }

    /// The JPEG inside `PRVW`: after 16 bytes of header (ending with the JPEG's length).
    public static func previewRanges(_ reader: ByteReader) -> [Range<Int>] {
        guard let contents = self.uuidContents(self.previewUUID, in: reader, range: 0..<reader.count),
            contents.count >= 8,
            let preview = ISOBox.find("PRVW", in: reader, range: (contents.lowerBound + 8)..<contents.upperBound),
            preview.payload.count > 16
        else { return [] }
        let start = preview.payload.lowerBound + 16
        let length = min(Int(reader.u32be(start - 4)), preview.payload.upperBound - start)
        return [start..<start + length]
    }

    /// The contents (after the 16-byte UUID) of the `uuid` box with `uuid` among the boxes in `range`.
    static func uuidContents(_ uuid: [UInt8], in reader: ByteReader, range: Range<Int>) -> Range<Int>? {
        for box in ISOBox.children(in: reader, range: range) where box.type == "uuid" && box.payload.count >= 16 {
            if (0..<16).allSatisfy({ reader.u8(box.payload.lowerBound + $0) == uuid[$0] }) {
                return (box.payload.lowerBound + 16)..<box.payload.upperBound
            }
        }
        return nil
    }
}

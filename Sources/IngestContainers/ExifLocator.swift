import IngestCore

/// Finds the EXIF (TIFF structures) inside a photo's bytes, by container, without decoding any
/// pixels.
///
/// A JPEG's EXIF is looked for in every APPn segment before the scan, not only the first: Samsung
/// and Huawei phones write it after APP6-APP9 segments. A TIFF-based file (TIFF and most raw
/// formats) is one TIFF structure, walked over the whole file, since its directories and values
/// may lie anywhere in it.
public enum ExifLocator {
    /// The TIFF structures of the file's EXIF: none when it has no EXIF, three for a CR3, two for
    /// an RW2 whose JpgFromRaw carries EXIF of its own (Panasonic keeps its maker note there).
    public static func exif(in bytes: UnsafeRawBufferPointer, kind: MediaKind) -> [TIFFStructure] {
        let reader = ByteReader(bytes)
        switch kind {
        case .cr3:
            return CanonCR3.structures(reader)
        case .rw2:
            guard let main = TIFFStructure(bytes) else { return [] }
            guard let blob = main.entry(0x002E, in: [.main(0)]), blob.type == 7,
                let jpeg = reader.slice(blob.valueOffset, blob.count),
                let embedded = self.jpeg(ByteReader(jpeg)).flatMap(self.stripToTIFF).flatMap({ TIFFStructure($0) })
            else { return [main] }
            return [main, embedded]
        default:
            return self.tiffBlock(in: bytes, kind: kind).flatMap { TIFFStructure($0) }.map { [$0] } ?? []
        }
    }

    /// The TIFF bytes (starting `II*\0` or `MM\0*`) of the file's EXIF, or nil when it has none
    /// or keeps it in several structures (CR3).
    public static func tiffBlock(in bytes: UnsafeRawBufferPointer, kind: MediaKind) -> UnsafeRawBufferPointer? {
        let reader = ByteReader(bytes)
        switch kind {
        case .tiff, .dng, .cr2, .nef, .arw, .pef, .rw2, .orf:
            // Their headers, RW2's and ORF's own magic numbers included, are the TIFF header.
            return bytes
        case .raf:
            return FujifilmRAF.jpegRange(reader).flatMap { reader.slice($0.lowerBound, $0.count) }
                .flatMap { self.jpeg(ByteReader($0)) }.flatMap(self.stripToTIFF)
        case .cr3, .mp4, .quickTime, .threeGPP:
            return nil
        case .jpeg: return self.jpeg(reader).flatMap(self.stripToTIFF)
        case .png: return self.png(reader).flatMap(self.stripToTIFF)
        case .webp: return self.webp(reader).flatMap(self.stripToTIFF)
        case .heic, .avif: return self.heif(reader).flatMap(self.stripToTIFF)
        case .jxl: return self.jxl(reader).flatMap(self.stripToTIFF)
        }
    }

    /// JPEG XL in its container: the `Exif` box, whose contents start with a 4-byte offset to the
    /// TIFF header. A bare codestream carries no EXIF.
    static func jxl(_ reader: ByteReader) -> UnsafeRawBufferPointer? {
        guard reader.u32be(0) == 12, reader.fourCC(4) == "JXL ",
            let box = ISOBox.find("Exif", in: reader, range: 0..<reader.count), box.payload.count > 4
        else { return nil }
        let headerOffset = Int(reader.u32be(box.payload.lowerBound))
        guard headerOffset <= box.payload.count - 4 else { return nil }
        return reader.slice(box.payload.lowerBound + 4 + headerOffset, box.payload.count - 4 - headerOffset)
    }

    /// JPEG: the first APP1 segment that starts `Exif\0\0`, anywhere before the scan data.
    static func jpeg(_ reader: ByteReader) -> UnsafeRawBufferPointer? {
        let app1 = JPEGSegment.first(in: reader) { segment in
            segment.marker == 0xE1
                && reader.slice(segment.payload.lowerBound, segment.payload.count).map(self.hasExifHeader) == true
        }
        return app1.flatMap { reader.slice($0.payload.lowerBound + 6, $0.payload.count - 6) }
    }

    /// PNG: the `eXIf` chunk.
    static func png(_ reader: ByteReader) -> UnsafeRawBufferPointer? {
        var offset = 8
        while offset + 12 <= reader.count {
            let length = Int(reader.u32be(offset))
            guard length <= reader.count - offset - 12 else { return nil }
            if reader.fourCC(offset + 4) == "eXIf" { return reader.slice(offset + 8, length) }
            if reader.fourCC(offset + 4) == "IEND" { return nil }
            offset += 12 + length
        }
        return nil
    }

    /// WebP: the `EXIF` chunk of an extended (VP8X) file.
    static func webp(_ reader: ByteReader) -> UnsafeRawBufferPointer? {
        var offset = 12
        while offset + 8 <= reader.count {
            let length = Int(reader.u32le(offset + 4))
            guard length <= reader.count - offset - 8 else { return nil }
            if reader.fourCC(offset) == "EXIF" { return reader.slice(offset + 8, length) }
            offset += 8 + length + (length & 1)
        }
        return nil
    }

    /// HEIF and AVIF: the item of type `Exif`, located through the `meta` box's `iinf` and `iloc`.
    ///
    /// The item starts with a 4-byte offset to the TIFF header, usually followed by `Exif\0\0`.
    static func heif(_ reader: ByteReader) -> UnsafeRawBufferPointer? {
        guard let meta = ISOBox.find("meta", in: reader, range: 0..<reader.count), meta.payload.count >= 4 else {
            return nil
        }
        // meta is a full box: version and flags come before its children.
        let children = (meta.payload.lowerBound + 4)..<meta.payload.upperBound
        guard let iinf = ISOBox.find("iinf", in: reader, range: children),
            let iloc = ISOBox.find("iloc", in: reader, range: children),
            let itemID = self.exifItemID(reader, iinf: iinf),
            let extent = self.location(of: itemID, reader, iloc: iloc),
            let item = reader.slice(extent.lowerBound, extent.count), item.count > 4
        else { return nil }
        let headerOffset = Int(ByteReader(item).u32be(0))
        if headerOffset <= item.count - 4 {
            return UnsafeRawBufferPointer(rebasing: item[(4 + headerOffset)...])
        }
        return UnsafeRawBufferPointer(rebasing: item[4...])
    }

    static func exifItemID(_ reader: ByteReader, iinf: ISOBox) -> UInt32? {
        let version = reader.u8(iinf.payload.lowerBound)
        var offset = iinf.payload.lowerBound + 4 + (version == 0 ? 2 : 4)
        while let infe = ISOBox.at(offset, in: reader, limit: iinf.payload.upperBound) {
            defer { offset = infe.payload.upperBound }
            guard infe.type == "infe", infe.payload.count >= 12 else { continue }
            let infeVersion = reader.u8(infe.payload.lowerBound)
            let body = infe.payload.lowerBound + 4
            switch infeVersion {
            case 2 where reader.fourCC(body + 4) == "Exif":
                return UInt32(reader.u16be(body))
            case 3 where infe.payload.count >= 14 && reader.fourCC(body + 6) == "Exif":
                return reader.u32be(body)
            default:
                continue
            }
        }
        return nil
    }

    /// Reads `count` extents at `offset` (moved past them), returning the file range of the
    /// first (nil for none); nil when one runs past `end`, or the first past the file.
    static func firstExtent(
        _ reader: ByteReader, at offset: inout Int, count: UInt64, base: UInt64,
        _ sizes: (index: Int, offset: Int, length: Int), end: Int
    ) -> Range<Int>?? {
        var first: Range<Int>?
        for _ in 0..<count {
            offset += sizes.index
            guard let extentOffset = reader.uint(offset, size: sizes.offset, limit: end),
                let extentLength = reader.uint(offset + sizes.offset, size: sizes.length, limit: end)
            else { return nil }
            offset += sizes.offset + sizes.length
            if first == nil {
                let (start, overflow) = base.addingReportingOverflow(extentOffset)
                guard !overflow, start <= UInt64(reader.count), extentLength <= UInt64(reader.count) - start
                else { return nil }
                first = Int(start)..<Int(start + extentLength)
            }
        }
        return .some(first)
    }

    /// The file range of an item stored in one extent, with construction method 0 (file offset).
    static func location(of itemID: UInt32, _ reader: ByteReader, iloc: ISOBox) -> Range<Int>? {
        var offset = iloc.payload.lowerBound
        guard iloc.payload.count >= 8 else { return nil }
        let version = reader.u8(offset)
        let sizes = reader.u16be(offset + 4)
        let offsetSize = Int(sizes >> 12 & 0xF)
        let lengthSize = Int(sizes >> 8 & 0xF)
        let baseOffsetSize = Int(sizes >> 4 & 0xF)
        let indexSize = version == 1 || version == 2 ? Int(sizes & 0xF) : 0
        offset += 6
        let itemCount: Int
        if version < 2 {
            itemCount = Int(reader.u16be(offset))
            offset += 2
        } else {
            itemCount = Int(reader.u32be(offset))
            offset += 4
        }
        let end = iloc.payload.upperBound
        for _ in 0..<itemCount {
            guard let id = reader.uint(offset, size: version < 2 ? 2 : 4, limit: end) else { return nil }
            offset += version < 2 ? 2 : 4
            var constructionMethod = 0
            if version == 1 || version == 2 {
                guard let method = reader.uint(offset, size: 2, limit: end) else { return nil }
                constructionMethod = Int(method & 0xF)
                offset += 2
            }
            offset += 2  // data reference index
            guard let base = reader.uint(offset, size: baseOffsetSize, limit: end),
                let extentCount = reader.uint(offset + baseOffsetSize, size: 2, limit: end)
            else { return nil }
            offset += baseOffsetSize + 2
            let layout = (index: indexSize, offset: offsetSize, length: lengthSize)
            guard let first = Self.firstExtent(reader, at: &offset, count: extentCount, base: base, layout, end: end)
            else { return nil }
            if id == itemID {
                guard constructionMethod == 0, extentCount == 1 else { return nil }
                return first
            }
        }
        return nil
    }

    static func hasExifHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 6 && bytes.prefix(6).elementsEqual([0x45, 0x78, 0x69, 0x66, 0x00, 0x00])
    }

    /// Drops an `Exif\0\0` prefix where one is present and checks for a TIFF header, searching a
    /// few bytes ahead because writers disagree about what comes before it.
    static func stripToTIFF(_ block: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let searchLimit = min(block.count - 4, 16)
        guard searchLimit >= 0 else { return nil }
        for start in 0...searchLimit {
            let a = block[start]
            let b = block[start + 1]
            let c = block[start + 2]
            let d = block[start + 3]
            if (a == 0x49 && b == 0x49 && c == 0x2A && d == 0x00) || (a == 0x4D && b == 0x4D && c == 0x00 && d == 0x2A)
            {
                return UnsafeRawBufferPointer(rebasing: block[start...])
            }
        }
        return nil
    }
}

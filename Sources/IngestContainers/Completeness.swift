import Glibc
import IngestCore

/// Whether a file's bytes hold a whole photo or video, judged from its own structure: a JPEG
/// reaches its end-of-image marker, an ISO base media file's boxes fill it and hold their index,
/// a TIFF-based raw file's directories and image data fit inside it.
///
/// A watch asks this of a file whose writer went quiet without closing it (a camera's upload that
/// stalled, a copy that died): such a file is read only when it is whole. A format it cannot judge
/// is ``unknown``, and the watch falls back on the quiet time alone.
public enum Completeness: Sendable, Equatable {
    case whole
    /// Cut short: what is missing, said to the user.
    case cut(String)
    case unknown

    /// Judges `bytes`, the whole file as it is now.
    public static func of(_ bytes: UnsafeRawBufferPointer) -> Completeness {
        let reader = ByteReader(bytes)
        guard case .supported(let kind) = MediaSniffer.sniff(bytes.prefix(MediaSniffer.headerLength)) else {
            return bytes.isEmpty ? .cut("it is empty") : .unknown
        }
        switch kind {
        case .jpeg: return self.jpeg(reader)
        case .png: return self.png(reader)
        case .webp: return self.riff(reader)
        case .heic, .avif, .cr3, .mp4, .quickTime, .threeGPP: return self.isoBaseMedia(reader)
        case .tiff, .dng, .cr2, .nef, .arw, .rw2, .orf, .pef: return self.tiff(bytes)
        case .raf: return self.raf(reader)
        case .jxl: return .unknown
        }
    }

    /// A JPEG is whole once its end-of-image marker follows the scan data. Segments are walked by
    /// length (an EXIF thumbnail's own marker is inside one), before the first scan and between a
    /// progressive JPEG's scans (their tables may hold any byte); in scan data only a marker can
    /// hold 0xFF followed by anything but a zero or a restart marker.
    static func jpeg(_ reader: ByteReader) -> Completeness {
        var scan = 2
        while true {
            guard scan + 4 <= reader.count else { return .cut("the JPEG ends before its image data") }
            // Stray bytes between segments (a length that was off): libjpeg passes over them to
            // the next marker, and so does this.
            guard reader.u8(scan) == 0xFF else {
                scan += 1
                continue
            }
            let marker = reader.u8(scan + 1)
            if marker == 0xFF || marker == 0x01 || (0xD0...0xD8).contains(marker) {
                scan += marker == 0xFF ? 1 : 2
                continue
            }
            if marker == 0xD9 { return .whole }
            let end = scan + 2 + Int(reader.u16be(scan + 2))
            guard end <= reader.count else { return .cut("the JPEG ends inside a segment") }
            scan = end
            if marker == 0xDA { break }
        }
        var offset = scan
        while offset + 1 < reader.count {
            guard reader.bytes[offset] == 0xFF else {
                offset += 1
                continue
            }
            let marker = reader.bytes[offset + 1]
            if marker == 0xD9 { return .whole }
            if marker == 0x00 || marker == 0xFF || (0xD0...0xD7).contains(marker) {
                offset += marker == 0xFF ? 1 : 2
                continue
            }
            // Another segment (the next scan's header, its tables): passed over by its length.
            guard offset + 4 <= reader.count else { break }
            offset += 2 + Int(reader.u16be(offset + 2))
        }
        return .cut("the JPEG has no end-of-image marker")
    }

    /// A PNG is whole once its chunks reach `IEND`.
    static func png(_ reader: ByteReader) -> Completeness {
        var offset = 8
        for _ in 0..<Self.chunkLimit {
            guard offset + 12 <= reader.count else { return .cut("the PNG ends before its IEND chunk") }
            if reader.fourCC(offset + 4) == "IEND" { return .whole }
            offset += 12 + Int(reader.u32be(offset))
        }
        return .unknown
    }

    /// A WebP is whole when its RIFF header's size fits the file.
    static func riff(_ reader: ByteReader) -> Completeness {
        let size = Int(reader.u32le(4)) + 8
        return size <= reader.count ? .whole : .cut("the WebP is \(size) bytes long, \(reader.count) are written")
    }

    /// An ISO base media file is whole when its top-level boxes fill it, each within it, and one
    /// holds its index: a video's `moov`, a HEIF's `meta`.
    static func isoBaseMedia(_ reader: ByteReader) -> Completeness {
        var offset = 0
        var indexed = false
        for _ in 0..<Self.chunkLimit {
            if offset == reader.count {
                return indexed ? .whole : .cut("no moov or meta box: the file's index is not written yet")
            }
            guard let box = ISOBox.at(offset, in: reader, limit: reader.count) else {
                return .cut("the box at byte \(offset) runs past the end (\(reader.count) bytes written)")
            }
            indexed = indexed || box.type == "moov" || box.type == "meta"
            offset = box.payload.upperBound
        }
        return .unknown
    }

    /// A TIFF-based file is whole when its directories were found and every strip, tile and
    /// embedded JPEG they point to lies inside it.
    static func tiff(_ bytes: UnsafeRawBufferPointer) -> Completeness {
        guard let tiff = TIFFStructure(bytes), !tiff.directories.isEmpty else {
            return .cut("its first directory lies past the end")
        }
        // The first directory whole, with every value it keeps outside itself.
        let first = Int(tiff.u32(4))
        let entries = Int(tiff.u16(first))
        guard first + 2 + 12 * entries + 4 <= bytes.count else { return .cut("its first directory is cut short") }
        for index in 0..<min(entries, Self.chunkLimit) {
            let entry = first + 2 + 12 * index
            let size = (TIFFStructure.size(of: tiff.u16(entry + 2)) ?? 1) * Int(tiff.u32(entry + 4))
            if size > 4 && Int(tiff.u32(entry + 8)) + size > bytes.count {
                return .cut("a value of its first directory lies past the end")
            }
        }
        let extents: [(offset: UInt16, length: UInt16)] = [(0x111, 0x117), (0x144, 0x145), (0x201, 0x202)]
        for directory in tiff.directories {
            for (offsetTag, lengthTag) in extents {
                guard let offsets = directory.entry(offsetTag), let lengths = directory.entry(lengthTag) else {
                    continue
                }
                for index in 0..<min(offsets.count, lengths.count, Self.chunkLimit) {
                    guard let start = tiff.unsigned(offsets, index), let length = tiff.unsigned(lengths, index)
                    else { continue }
                    if Int(start) + Int(length) > bytes.count {
                        return .cut(
                            "its image data runs to byte \(Int(start) + Int(length)), \(bytes.count) are written")
                    }
                }
            }
        }
        return .whole
    }

    /// A Fujifilm RAF is whole when its preview and its sensor data, placed by its header, fit.
    static func raf(_ reader: ByteReader) -> Completeness {
        for at in [84, 100] {
            let end = Int(reader.u32be(at)) + Int(reader.u32be(at + 4))
            if at + 8 > reader.count || end > reader.count {
                return .cut("its data runs to byte \(end), \(reader.count) are written")
            }
        }
        return .whole
    }

    /// Boxes, chunks or strips looked at, at most: a hostile file of millions costs a bounded walk.
    static let chunkLimit = 4_096
}

extension Completeness {
    /// Judges the file at `path`, mapped read-only; nil when it cannot be read.
    public static func of(path: String) -> Completeness? {
        guard let file = try? OpenFile(path, O_RDONLY), let status = try? file.status() else { return nil }
        defer { file.close() }
        let size = Int(status.st_size)
        guard size > 0 else { return .cut("it is empty") }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.raw, 0), mapped != MAP_FAILED else {
            return nil
        }
        defer { munmap(mapped, size) }
        return self.of(UnsafeRawBufferPointer(start: mapped, count: size))
    }
}

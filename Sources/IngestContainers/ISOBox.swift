import IngestCore

/// An ISO base media box (ISO/IEC 14496-12; QuickTime's atoms are the same): its type and the byte
/// range of its payload. The one box walker of photoingest: HEIF's EXIF item, the sniffer's `ftyp`
/// and video metadata all walk boxes through it.
public struct ISOBox: Sendable, Equatable {
    public var type: String
    /// Where the box starts: its size, then its type at `offset + 4`.
    public var offset: Int
    /// Where the box's contents lie, after its header.
    public var payload: Range<Int>

    public init(type: String, offset: Int, payload: Range<Int>) {
        self.type = type
        self.offset = offset
        self.payload = payload
    }

    /// The box that starts at `offset`, if it fits before `limit`.
    public static func at(_ offset: Int, in reader: ByteReader, limit: Int) -> ISOBox? {
        guard offset + 8 <= limit else { return nil }
        var size = UInt64(reader.u32be(offset))
        var header = 8
        if size == 1 {
            guard offset + 16 <= limit, let large = reader.uint(offset + 8, size: 8, limit: limit) else { return nil }
            size = large
            header = 16
        } else if size == 0 {
            size = UInt64(limit - offset)
        }
        guard size >= UInt64(header), size <= UInt64(limit - offset) else { return nil }
        return ISOBox(
            type: reader.fourCC(offset + 4), offset: offset, payload: (offset + header)..<(offset + Int(size)))
    }

    /// The first box of `type` among the siblings in `range`.
    public static func find(_ type: String, in reader: ByteReader, range: Range<Int>) -> ISOBox? {
        var found: ISOBox?
        self.walk(in: reader, range: range) { box in
            if box.type == type { found = box }
            return found == nil
        }
        return found
    }

    /// The child boxes inside `range`, in order, up to the first that does not fit.
    public static func children(in reader: ByteReader, range: Range<Int>) -> [ISOBox] {
        var boxes: [ISOBox] = []
        self.walk(in: reader, range: range) { box in
            boxes.append(box)
            return true
        }
        return boxes
    }

    /// Sibling boxes looked at, at most, in one walk. Real files hold tens (a HEIF's top level, a
    /// `moov`'s tracks, an `ilst`'s items); a hostile one of millions of 8-byte boxes would cost
    /// seconds to walk, and gigabytes to list.
    public static let siblingLimit = 4_096

    /// Hands `body` each box from `range`'s start, each after the one before, until `body` says
    /// stop, a box does not fit, or ``siblingLimit`` boxes were seen.
    static func walk(in reader: ByteReader, range: Range<Int>, _ body: (ISOBox) -> Bool) {
        var offset = range.lowerBound
        for _ in 0..<Self.siblingLimit {
            guard let box = self.at(offset, in: reader, limit: range.upperBound), body(box) else { return }
            offset = box.payload.upperBound
        }
    }

    /// The box at the end of `path` (e.g. `["trak", "mdia", "mdhd"]`), each step the first child of that type.
    public static func find(path: [String], in reader: ByteReader, range: Range<Int>) -> ISOBox? {
        var range = range
        var found: ISOBox?
        for type in path {
            guard let box = self.find(type, in: reader, range: range) else { return nil }
            found = box
            range = box.payload
        }
        return found
    }
}

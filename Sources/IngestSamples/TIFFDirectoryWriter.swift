/// Writes TIFF directories for the test builders (``ExifBuilder``, ``RawFileBuilder``): one
/// directory's entries in tag order, then the values that do not fit in an entry, which follow the
/// table at the directory's offset.
public struct TIFFDirectoryWriter: Sendable {
    public enum Value: Sendable {
        case byte([UInt8])
        case ascii(String)
        case short([Int])
        case long([Int])
        case rationals([(UInt32, UInt32)])
        case undefined([UInt8])
        /// A pointer to a directory as TIFF type IFD (13), as Olympus writes its CameraSettings.
        case ifd(Int)
    }

    public var bigEndian: Bool

    public init(bigEndian: Bool) {
        self.bigEndian = bigEndian
    }

    /// The directory written at `offset` (out-of-line values are placed, and pointed to, after its
    /// table); `next` is the following directory's offset. `elsewhere` places an entry's value at
    /// an offset of the caller's (offset, count), as a maker note's; its own bytes are then unused.
    public func directory(
        _ entries: [(UInt16, Value)], at offset: Int, next: Int = 0,
        elsewhere: [UInt16: (offset: Int, count: Int)] = [:]
    ) -> [UInt8] {
        let sorted = entries.sorted { $0.0 < $1.0 }
        var table = self.u16(sorted.count)
        var data: [UInt8] = []
        let dataStart = offset + 2 + sorted.count * 12 + 4
        for (tag, value) in sorted {
            let (type, count, bytes): (Int, Int, [UInt8]) =
                switch value {
                case .byte(let bytes): (1, bytes.count, bytes)
                case .ascii(let text): (2, text.utf8.count + 1, Array(text.utf8) + [0])
                case .short(let values): (3, values.count, values.flatMap(self.u16))
                case .long(let values): (4, values.count, values.flatMap(self.u32))
                case .rationals(let values):
                    (5, values.count, values.flatMap { self.u32(Int($0.0)) + self.u32(Int($0.1)) })
                case .undefined(let bytes): (7, bytes.count, bytes)
                case .ifd(let pointer): (13, 1, self.u32(pointer))
                }
            table += self.u16(Int(tag)) + self.u16(type)
            if let placed = elsewhere[tag] {
                table += self.u32(placed.count) + self.u32(placed.offset)
            } else if bytes.count <= 4 {
                table += self.u32(count) + bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                table += self.u32(count) + self.u32(dataStart + data.count)
                data += bytes
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return table + self.u32(next) + data
    }

    public func u16(_ value: Int) -> [UInt8] {
        let bytes = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
        return self.bigEndian ? bytes.reversed() : bytes
    }

    public func u32(_ value: Int) -> [UInt8] {
        let bytes = [0, 8, 16, 24].map { UInt8(value >> $0 & 0xFF) }
        return self.bigEndian ? bytes.reversed() : bytes
    }
}

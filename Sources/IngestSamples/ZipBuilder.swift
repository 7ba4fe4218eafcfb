/// Writes zip files byte by byte, for tests and fuzz seeds: stored entries, "deflated" ones
/// (deflate's own stored blocks: a real deflate stream that needs no compressor), and the
/// ZIP64 forms of every size, offset and end record when asked.
///
/// Real writers' zips (Python's zipfile, with real compression) are made by the tests beside these.
public struct ZipBuilder {
    public struct Item {
        /// The name's bytes: UTF-8, or anything a test needs.
        public var name: [UInt8]
        public var bytes: [UInt8]
        public var deflated: Bool
    }

    public var items: [Item] = []
    /// Every size and offset in ZIP64 form (fixed fields all ones), and the ZIP64 end records.
    public var zip64 = false
    /// The MS-DOS date and time of every entry (2024-05-04 13:16:16).
    public var dosDate: UInt16 = (44 << 9) | (5 << 5) | 4
    public var dosTime: UInt16 = (13 << 11) | (16 << 5) | 8

    public init(zip64: Bool = false) {
        self.zip64 = zip64
    }

    public mutating func add(_ name: String, _ bytes: [UInt8], deflated: Bool = false) {
        self.items.append(Item(name: Array(name.utf8), bytes: bytes, deflated: deflated))
    }

    /// An entry whose name is these bytes, UTF-8 or not.
    public mutating func add(nameBytes: [UInt8], _ bytes: [UInt8]) {
        self.items.append(Item(name: nameBytes, bytes: bytes, deflated: false))
    }

    /// The zip file's bytes.
    public func bytes() -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for item in self.items {
            let data = item.deflated ? Self.storedBlocks(item.bytes) : item.bytes
            let crc = Self.crc32(item.bytes)
            let name = item.name
            let offset = UInt64(out.count)
            let zip64Extra =
                Self.le(0x0001, 2) + Self.le(24, 2) + Self.le(UInt64(item.bytes.count), 8)
                + Self.le(UInt64(data.count), 8)
                + Self.le(offset, 8)
            let extra = self.zip64 ? zip64Extra : []
            let size: UInt64 = self.zip64 ? 0xFFFF_FFFF : UInt64(item.bytes.count)
            let compressed: UInt64 = self.zip64 ? 0xFFFF_FFFF : UInt64(data.count)
            let method: UInt64 = item.deflated ? 8 : 0
            let version: UInt64 = self.zip64 ? 45 : 20
            out += Self.le(0x0403_4b50, 4) + Self.le(version, 2) + Self.le(0x0800, 2) + Self.le(method, 2)
            out += Self.le(UInt64(self.dosTime), 2) + Self.le(UInt64(self.dosDate), 2) + Self.le(UInt64(crc), 4)
            // The local header's ZIP64 extra holds only the two sizes.
            let localExtra = self.zip64 ? Array(zip64Extra[0..<20]) : []
            var local = localExtra
            if self.zip64 { local.replaceSubrange(2..<4, with: Self.le(16, 2)) }
            out += Self.le(compressed, 4) + Self.le(size, 4) + Self.le(UInt64(name.count), 2)
            out += Self.le(UInt64(local.count), 2) + name + local + data
            directory += Self.le(0x0201_4b50, 4) + Self.le(version, 2) + Self.le(version, 2) + Self.le(0x0800, 2)
            directory += Self.le(method, 2) + Self.le(UInt64(self.dosTime), 2) + Self.le(UInt64(self.dosDate), 2)
            directory += Self.le(UInt64(crc), 4) + Self.le(compressed, 4) + Self.le(size, 4)
            directory += Self.le(UInt64(name.count), 2) + Self.le(UInt64(extra.count), 2) + Self.le(0, 2)
            directory += Self.le(0, 2) + Self.le(0, 2) + Self.le(0, 4)
            directory += Self.le(self.zip64 ? 0xFFFF_FFFF : offset, 4) + name + extra
        }
        let directoryOffset = UInt64(out.count)
        out += directory
        let count = UInt64(self.items.count)
        if self.zip64 {
            let record = UInt64(out.count)
            out += Self.le(0x0606_4b50, 4) + Self.le(44, 8) + Self.le(45, 2) + Self.le(45, 2) + Self.le(0, 4)
            out += Self.le(0, 4) + Self.le(count, 8) + Self.le(count, 8) + Self.le(UInt64(directory.count), 8)
            out += Self.le(directoryOffset, 8)
            out += Self.le(0x0706_4b50, 4) + Self.le(0, 4) + Self.le(record, 8) + Self.le(1, 4)
        }
        out += Self.le(0x0605_4b50, 4) + Self.le(0, 2) + Self.le(0, 2)
        out += Self.le(self.zip64 ? 0xFFFF : count, 2) + Self.le(self.zip64 ? 0xFFFF : count, 2)
        out += Self.le(self.zip64 ? 0xFFFF_FFFF : UInt64(directory.count), 4)
        out += Self.le(self.zip64 ? 0xFFFF_FFFF : directoryOffset, 4) + Self.le(0, 2)
        return out
    }

    /// `bytes` as a deflate stream of stored blocks (at most 65,535 bytes each).
    static func storedBlocks(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        repeat {
            let end = min(bytes.count, start + 0xFFFF)
            let length = UInt64(end - start)
            out.append(end == bytes.count ? 1 : 0)
            out += Self.le(length, 2) + Self.le(~length & 0xFFFF, 2) + bytes[start..<end]
            start = end
        } while start < bytes.count
        return out
    }

    static func le(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// CRC-32 (ISO 3309, as zip uses it), bit by bit: test inputs are small.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

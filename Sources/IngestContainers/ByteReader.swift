import IngestCore

/// Bounds-checked reads from untrusted bytes: out of range reads yield zero, never a trap.
public struct ByteReader {
    public let bytes: UnsafeRawBufferPointer
    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    public var count: Int { self.bytes.count }

    public func u8(_ offset: Int) -> UInt8 {
        offset >= 0 && offset < self.count ? self.bytes[offset] : 0
    }

    public func u16be(_ offset: Int) -> UInt16 { UInt16(self.u8(offset)) << 8 | UInt16(self.u8(offset + 1)) }

    public func u32be(_ offset: Int) -> UInt32 {
        UInt32(self.u16be(offset)) << 16 | UInt32(self.u16be(offset + 2))
    }

    public func u16le(_ offset: Int) -> UInt16 { UInt16(self.u8(offset)) | UInt16(self.u8(offset + 1)) << 8 }

    public func u64le(_ offset: Int) -> UInt64 {
        UInt64(self.u32le(offset)) | UInt64(self.u32le(offset + 4)) << 32
    }

    public func u32le(_ offset: Int) -> UInt32 {
        UInt32(self.u8(offset)) | UInt32(self.u8(offset + 1)) << 8 | UInt32(self.u8(offset + 2)) << 16
            | UInt32(self.u8(offset + 3)) << 24
    }

    /// A big-endian unsigned integer of 0, 2, 4 or 8 bytes, or nil when it would pass `limit`.
    public func uint(_ offset: Int, size: Int, limit: Int) -> UInt64? {
        guard offset >= 0, offset + size <= min(limit, self.count) else { return nil }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(self.bytes[offset + index]) }
        return value
    }

    /// Four bytes as Latin-1 text, so that QuickTime's `©` (0xA9) types read as `©day`.
    public func fourCC(_ offset: Int) -> String {
        String(String.UnicodeScalarView((0..<4).map { Unicode.Scalar(self.u8(offset + $0)) }))
    }

    public func slice(_ offset: Int, _ length: Int) -> UnsafeRawBufferPointer? {
        guard offset >= 0, length >= 0, offset <= self.count, length <= self.count - offset else { return nil }
        return UnsafeRawBufferPointer(rebasing: self.bytes[offset..<offset + length])
    }
}

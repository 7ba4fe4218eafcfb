/// One entry of a zip file's central directory: where its bytes are and what they must be.
///
/// The CRC-32 and the sizes are the central directory's: they identify the entry's content
/// without reading it (a re-run compares them), and bound what reading it may produce.
public struct ZipEntry: Sendable, Hashable {
    /// Its name in the zip, folders separated by `/` (UTF-8, or Latin-1 when the bytes are not UTF-8).
    public var name: String
    /// 0: stored; 8: deflated. Others are listed, and refused when read.
    public var method: UInt16
    public var isEncrypted: Bool
    public var crc32: UInt32
    public var compressedSize: UInt64
    /// The size of its content, which reading must produce exactly.
    public var size: UInt64
    /// Where its local header starts.
    public var localHeaderOffset: UInt64
    /// Its modification time in seconds since the epoch: the extended timestamp's (UTC) when it
    /// has one, else the MS-DOS time read as UTC (the zip does not say its zone).
    public var modifiedSeconds: Int64

    public init(
        name: String, method: UInt16, isEncrypted: Bool = false, crc32: UInt32, compressedSize: UInt64, size: UInt64,
        localHeaderOffset: UInt64, modifiedSeconds: Int64
    ) {
        self.name = name
        self.method = method
        self.isEncrypted = isEncrypted
        self.crc32 = crc32
        self.compressedSize = compressedSize
        self.size = size
        self.localHeaderOffset = localHeaderOffset
        self.modifiedSeconds = modifiedSeconds
    }

    /// A folder's entry (its name ends in `/`): it holds nothing to read.
    public var isFolder: Bool { self.name.hasSuffix("/") }

    public static let stored: UInt16 = 0
    public static let deflated: UInt16 = 8
}

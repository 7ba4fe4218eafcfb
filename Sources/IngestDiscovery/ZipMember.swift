import Foundation
import IngestContainers
import IngestCore

/// A file inside a zip file: walked like a folder's file, read in place, never unpacked.
///
/// Its path is the zip's followed by the entry's name (`/exports/takeout-001.zip/Takeout/…/IMG_1.jpg`).
/// Its stamp is the central directory's: the entry's size, its modification time and, in place of
/// an inode, its CRC-32. A re-run compares these and so skips an unchanged entry without
/// decompressing it.
public struct ZipMember: Sendable, Equatable {
    /// The zip file's absolute path.
    public var archive: String
    public var entry: ZipEntry

    public init(archive: String, entry: ZipEntry) {
        self.archive = archive
        self.entry = entry
    }

    public var path: String { self.archive + "/" + self.entry.name }

    public var stamp: FileStamp {
        FileStamp(
            size: Int64(clamping: self.entry.size), modifiedNanoseconds: self.entry.modifiedSeconds * 1_000_000_000,
            inode: UInt64(self.entry.crc32))
    }

    /// Its content, read where it lies by whoever needs it (a video's frame, store and upload).
    public var content: ContentSource { .zipEntry(archive: self.archive, entry: self.entry, path: self.path) }

    /// Whether `name` is a zip file's (`*.zip`, any case).
    static func isZip(_ name: String) -> Bool {
        NameScanner.hasSuffix(name, lowercased: Self.zipSuffix)
    }

    private static let zipSuffix = Array(".zip".utf8)
    private static let tarSuffixes = [".tgz", ".tar.gz", ".tar"].map { Array($0.utf8) }

    /// Why a compressed tar is not read in place, or nil when `name` is not one's.
    static func tarRefusal(_ name: String) -> String? {
        guard Self.tarSuffixes.contains(where: { NameScanner.hasSuffix(name, lowercased: $0) }) else { return nil }
        return
            "a tar file is not read in place: it has no index, so each file would mean reading it from the start, "
            + "and a photo's metadata can come after the photo; unpack it, or export as zip"
    }

    /// The entries of the zip file at `path`, of `size` bytes.
    static func entries(of path: String, size: UInt64) throws(IngestError) -> [ZipEntry] {
        let file: OpenFile
        do {
            file = try OpenFile(path, O_RDONLY | O_NONBLOCK)
        } catch {
            throw IngestError(.unreadable, "cannot open: \(error)", path: path)
        }
        defer { file.close() }
        do {
            return try ZipDirectory.entries(size: size) { offset, count throws(ZipError) -> [UInt8] in
                var bytes = [UInt8](repeating: 0, count: count)
                let got = try Self.read(file, offset: offset, into: &bytes)
                guard got == count else { throw ZipError("cut short: its directory runs past its end") }
                return bytes
            }
        } catch {
            throw IngestError(.decodeFailed, "not a readable zip file: \(error)", path: path)
        }
    }

    /// Calls `body` with a reader of the zip file and its size; the file is closed after.
    package func withArchive<T>(_ body: (@escaping ZipEntryStream.Reader, UInt64) throws(IngestError) -> T)
        throws(IngestError)
        -> T
    {
        let file: OpenFile
        do {
            file = try OpenFile(self.archive, O_RDONLY | O_NONBLOCK)
        } catch {
            throw IngestError(.unreadable, "cannot open its zip file: \(error)", path: self.path)
        }
        defer { file.close() }
        let size: UInt64
        do {
            size = UInt64(try file.status().st_size)
        } catch {
            throw IngestError(.unreadable, "cannot stat its zip file: \(error)", path: self.path)
        }
        return try body(ZipEntryContent.reader(file), size)
    }

    /// The entry's bytes, inflated whole and checked against its size and CRC-32: for what is
    /// small (a sidecar).
    func whole() throws(IngestError) -> [UInt8] {
        try self.withArchive { read, size throws(IngestError) -> [UInt8] in
            do throws(ZipError) {
                return try ZipEntryStream.whole(self.entry, fileSize: size, read: read)
            } catch {
                throw IngestError(.decodeFailed, "cannot read the zip entry: \(error)", path: self.path)
            }
        }
    }

    static func read(_ file: OpenFile, offset: UInt64, into bytes: inout [UInt8]) throws(ZipError) -> Int {
        try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(ZipError) -> Int in try ZipEntryContent.reader(file)(offset, buffer) }
        }.get()
    }
}

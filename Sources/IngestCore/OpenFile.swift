import Foundation
import SystemPackage

/// An open file, and the few POSIX calls photoingest makes on one.
///
/// A thin layer over swift-system's `FileDescriptor`: each call is retried when a signal
/// interrupts it, and fails with an `Errno`, whose description is the system's own words
/// ("No such file or directory"). Paths are opened by their bytes (``PathBytes``), so a name
/// that is not UTF-8 opens the file it names. The owner closes it, once.
public struct OpenFile: Sendable {
    public let descriptor: FileDescriptor

    /// Opens `path` with `flags` (`O_CLOEXEC` always added) and, for a file it creates, `permissions`.
    public init(_ path: String, _ flags: Int32, permissions: mode_t = 0) throws(Errno) {
        while true {
            let raw = PathBytes.withCString(path) { Glibc.open($0, flags | O_CLOEXEC, permissions) }
            if raw >= 0 {
                self.descriptor = FileDescriptor(rawValue: raw)
                return
            }
            guard errno == EINTR else { throw Errno(rawValue: errno) }
        }
    }

    /// The file already open as `raw` (standard error, a descriptor another library opened).
    public init(descriptor raw: Int32) {
        self.descriptor = FileDescriptor(rawValue: raw)
    }

    /// Standard error, for whole lines written at once.
    public static let standardError = OpenFile(descriptor: STDERR_FILENO)

    /// The descriptor's number, for C libraries that take one.
    public var raw: Int32 { self.descriptor.rawValue }

    /// What `fstat` says of the file.
    public func status() throws(Errno) -> stat {
        try self.descriptor.stat().rawValue
    }

    /// Reads at most `buffer.count` bytes; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try Self.typed { try self.descriptor.read(into: buffer) }
    }

    /// Reads until `buffer` is full or the file ends; returns how many bytes it holds.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        var filled = 0
        while filled < buffer.count {
            let got = try self.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if got == 0 { break }
            filled += got
        }
        return filled
    }

    /// Reads until `buffer` is full or the file ends; returns how many bytes it holds.
    public func readFully(into buffer: inout [UInt8]) throws(Errno) -> Int {
        try Self.typed { try buffer.withUnsafeMutableBytes { try self.readFully(into: $0) } }
    }

    /// Writes every byte of `bytes`.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        _ = try Self.typed { try self.descriptor.writeAll(bytes) }
    }

    /// Writes every byte of `bytes`.
    public func writeAll(_ bytes: some Collection<UInt8>) throws(Errno) {
        _ = try Self.typed { try self.descriptor.writeAll(bytes) }
    }

    /// Reads at most `buffer.count` bytes from `offset` (`pread`: the file position is left as it
    /// was, so that readers of one descriptor do not race); 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        try Self.typed { try self.descriptor.read(fromAbsoluteOffset: offset, into: buffer) }
    }

    /// Reads at most `buffer.count` bytes into the start of `buffer`; 0 at the end of the file.
    public func read(into buffer: inout [UInt8]) throws(Errno) -> Int {
        try Self.typed { try buffer.withUnsafeMutableBytes { try self.descriptor.read(into: $0) } }
    }

    /// Flushes the file's data and metadata to the disk.
    public func sync() throws(Errno) {
        try Self.retried { fsync(self.raw) }
    }

    /// Flushes the file's data to the disk, and of its metadata what reading the data back needs
    /// (its size, where its blocks are): `fdatasync`.
    public func syncData() throws(Errno) {
        try Self.retried { fdatasync(self.raw) }
    }

    /// Calls `call` again while a signal interrupts it; its error, if it fails.
    private static func retried(_ call: () -> Int32) throws(Errno) {
        while call() != 0 {
            guard errno == EINTR else { throw Errno(rawValue: errno) }
        }
    }

    public func close() {
        try? self.descriptor.close()
    }

    /// swift-system's calls throw only `Errno`, untyped; this says so to the compiler.
    private static func typed<T>(_ body: () throws -> T) throws(Errno) -> T {
        do {
            return try body()
        } catch let error as Errno {
            throw error
        } catch {
            throw Errno.ioError
        }
    }
}

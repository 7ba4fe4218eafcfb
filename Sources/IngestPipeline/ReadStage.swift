import Foundation
import IngestContainers
import IngestCore
import IngestDestinations
import IngestDiscovery
import IngestHashing

/// Stage 1: reads a file once, hashing it as the bytes arrive.
///
/// The first bytes decide the kind; a file that is not a supported photo or video is not read
/// further. A video streams through a 1 MiB buffer, whatever its size.
/// A file that changes while it is read fails (its hash would describe no version of it).
public struct ReadStage: Stage {
    public enum Output: Sendable {
        case photo(LoadedFile)
        /// Not a photo photoingest takes; `stamp` is the file's as opened.
        case unsupported(stamp: FileStamp, reason: String)
    }

    /// Read size: large enough that syscalls cost nothing next to hashing.
    static let chunkSize = 1 << 20

    public init() {}

    public func process(_ file: DiscoveredFile, context: StageContext) async throws(IngestError) -> Output {
        let limit = context.limits.maxFileBytes
        return try await context.io.run { () throws(IngestError) -> Output in
            // A Takeout JSON first: a photo in Google Photos' bin is not read at all.
            var takeout: Result<TakeoutFields, TakeoutJSON.Refusal>?
            if let sidecar = file.sidecar, case .takeoutJSON = sidecar.format {
                let fields = Self.takeoutFields(sidecar)
                if case .success(let read) = fields, read.trashed, !sidecar.takesTrashed {
                    return .unsupported(
                        stamp: file.stamp,
                        reason: "in Google Photos' bin, says its Takeout JSON (--include-trashed takes it)")
                }
                takeout = fields
            }
            let output: Output
            if let member = file.member {
                output = try Self.read(file, member: member, maxBytes: limit)
            } else {
                output = try Self.read(file, maxBytes: limit)
            }
            guard case .photo(var loaded) = output, let sidecar = file.sidecar else { return output }
            switch sidecar.format {
            case .takeoutJSON: loaded.takeout = takeout
            // The walk read the CSV: its time travels in the format.
            case .icloudCSV: break
            case .xmp:
                // The sidecar with its file, on the I/O workers: one read serves the date and the store.
                loaded.sidecar = Result { () throws(IngestError) -> [UInt8] in try sidecar.bytes() }
            }
            return .photo(loaded)
        }
    }

    /// The fields of the Takeout JSON `sidecar`, or why it gave none.
    static func takeoutFields(_ sidecar: Sidecar) -> Result<TakeoutFields, TakeoutJSON.Refusal> {
        do throws(IngestError) {
            return TakeoutJSON.fields(in: try sidecar.bytes())
        } catch {
            return .failure(TakeoutJSON.Refusal(description: error.message))
        }
    }

    static func read(_ file: DiscoveredFile, maxBytes: Int) throws(IngestError) -> Output {
        let clock = ContinuousClock()
        let started = clock.now
        let (opened, status) = try Self.open(file.path)
        defer { opened.close() }
        let stamp = FileStamp(status)
        let size = Int(status.st_size)

        var head = [UInt8](repeating: 0, count: MediaSniffer.headerLength)
        let headCount = try Self.readFully(opened, into: &head, path: file.path)
        let kind: MediaKind
        switch MediaSniffer.sniff(head.prefix(headCount)) {
        case .unsupported(let reason): return .unsupported(stamp: stamp, reason: reason)
        case .supported(let sniffed): kind = sniffed
        }
        if kind.isVideo {
            return try Self.stream(opened, file: file, stamp: stamp, kind: kind, head: head.prefix(headCount))
        }
        guard size <= maxBytes else {
            throw IngestError(
                .tooLarge, "\(size) bytes is over the limit of \(maxBytes) bytes held in memory", path: file.path)
        }
        guard headCount <= size else {
            throw IngestError(.changedWhileReading, "the file grew while being read", path: file.path)
        }
        let (bytes, lease, hash, hashing) = try Self.readWhole(
            opened, size: size, head: head.prefix(headCount), path: file.path)
        try Self.checkUnchanged(opened, stamp: stamp, path: file.path)
        var loaded = LoadedFile(
            file: DiscoveredFile(path: file.path, stamp: stamp, sidecar: file.sidecar),
            kind: bytes.withUnsafeBytes { MediaSniffer.refine(kind, $0) }, bytes: bytes, hash: hash,
            readSeconds: (clock.now - started - hashing).seconds, hashSeconds: hashing.seconds)
        loaded.lease = lease
        return .photo(loaded)
    }

    /// Opens `path` for reading and checks it is still a regular file.
    static func open(_ path: String) throws(IngestError) -> (file: OpenFile, status: stat) {
        // Non-blocking: a file swapped for a FIFO after the walk must not hang the run on open.
        let file: OpenFile
        do {
            file = try OpenFile(path, O_RDONLY | O_NONBLOCK)
        } catch {
            throw IngestError(.unreadable, "cannot open: \(error)", path: path)
        }
        let status: stat
        do {
            status = try file.status()
        } catch {
            file.close()
            throw IngestError(.unreadable, "cannot stat: \(error)", path: path)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            file.close()
            throw IngestError(.changedWhileReading, "no longer a regular file", path: path)
        }
        return (file, status)
    }

    /// A photo's whole file, `size` bytes, after the `head` already read; each chunk is hashed
    /// right after it is read, while it is still in the CPU cache. The bytes go into a buffer an
    /// earlier file held, when one is free (``FileBuffers``). Returns the time spent hashing.
    static func readWhole(
        _ file: OpenFile, size: Int, head: ArraySlice<UInt8>, path: String
    ) throws(IngestError) -> (bytes: [UInt8], lease: FileBuffers.Lease, hash: ContentHash, hashing: Duration) {
        let clock = ContinuousClock()
        var hasher = ContentHasher()
        var hashing = Duration.zero
        let (bytes, lease) = try FileBuffers.shared.take(count: size) { (buffer) throws(IngestError) in
            guard let base = buffer.baseAddress else { return }
            _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<head.count]).initialize(from: head)
            var initialized = head.count
            var hashed = 0
            while initialized < size || hashed < initialized {
                if hashed < initialized {
                    let hashStarted = clock.now
                    hasher.update(UnsafeRawBufferPointer(start: base + hashed, count: initialized - hashed))
                    hashed = initialized
                    hashing += clock.now - hashStarted
                }
                guard initialized < size else { break }
                let chunk = UnsafeMutableRawBufferPointer(
                    start: base + initialized, count: min(Self.chunkSize, size - initialized))
                guard let got = try? file.read(into: chunk), got > 0 else {
                    throw IngestError(
                        .changedWhileReading, "the file shrank or could not be read to its end while being read",
                        path: path)
                }
                initialized += got
            }
        }
        return (bytes, lease, hasher.finalize(), hashing)
    }

    /// A video: hashed as it streams through one buffer, its `moov` box kept on the way.
    static func stream(
        _ source: OpenFile, file: DiscoveredFile, stamp: FileStamp, kind: MediaKind, head: ArraySlice<UInt8>
    ) throws(IngestError) -> Output {
        let size = UInt64(stamp.size)
        var digest = VideoDigest(size: size, started: ContinuousClock().now)
        Array(head).withUnsafeBytes { digest.take($0) }
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        while digest.offset < size {
            let wanted = Int(min(UInt64(buffer.count), size - digest.offset))
            let got = buffer.withUnsafeMutableBytes {
                (try? source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<wanted]))) ?? -1
            }
            if got <= 0 {
                throw IngestError(
                    .changedWhileReading, "the file shrank or could not be read to its end while being read",
                    path: file.path)
            }
            buffer.withUnsafeBytes { digest.take(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
        }
        try Self.checkUnchanged(source, stamp: stamp, path: file.path)
        return .photo(
            try digest.finish(DiscoveredFile(path: file.path, stamp: stamp, sidecar: file.sidecar), kind: kind))
    }

    /// After the last byte: nothing more to read, and the stamp is the one the file was opened with.
    static func checkUnchanged(_ file: OpenFile, stamp: FileStamp, path: String) throws(IngestError) {
        var probe: [UInt8] = [0]
        if let got = try? file.read(into: &probe), got > 0 {
            throw IngestError(.changedWhileReading, "the file grew while being read", path: path)
        }
        if let after = try? file.status(), FileStamp(after) != stamp {
            throw IngestError(.changedWhileReading, "the file was modified while being read", path: path)
        }
    }

    /// Reads up to `buffer.count` bytes, returning how many arrived before end of file.
    static func readFully(_ file: OpenFile, into buffer: inout [UInt8], path: String) throws(IngestError) -> Int {
        do {
            return try file.readFully(into: &buffer)
        } catch {
            throw IngestError(.unreadable, "cannot read: \(error)", path: path)
        }
    }
}

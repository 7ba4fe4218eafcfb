import CJPEGShim
import CVipsShim
import Foundation
import IngestCore

/// Process-wide set-up of libvips, done once, on first use (``Thumbnailer`` calls it).
public enum ImagingLibrary {
    /// Starts libvips (and opens libjpeg, see ``JPEGEncoder``) for photoingest's way of working:
    /// one image per worker thread.
    ///
    /// - One libvips thread per image: photoingest runs `--jobs` images side by side, which
    ///   scales almost linearly, while more libvips threads per image gain under 10%.
    /// - No operation cache: every file is new, so the cache only costs memory.
    /// - Throws: ``IngestError`` when libvips cannot start (a broken installation).
    ///
    /// Safe to call more than once and from several threads: libvips starts once.
    public static func bootstrap() throws(IngestError) {
        try self.started.get()
    }

    /// Swift runs a static initialiser exactly once, whichever thread gets there first.
    private static let started = Result { () throws(IngestError) in try start() }

    /// Keeps resident memory flat over runs of any length; call it first thing in `main`.
    ///
    /// glibc gives every allocating thread an arena of its own, and after the first large buffer
    /// is freed it serves later ones (a whole file each) from those arenas, where they fragment:
    /// resident memory crept up with the number of files. Two arenas, and buffers of 1 MiB or more
    /// always mapped and unmapped (costing page faults measured as nothing next to decoding), keep it flat.
    /// Up to 4 MiB free at the top of a heap is kept rather than given back: each photo's
    /// thumbnails, computed into memory of their own, freed it and the next photo faulted the same
    /// pages in again (110,000-136,000 page faults over 200 photos, against 50,000 kept; peak RSS
    /// 160 MB either way).
    public static func tuneMemory() {
        _ = ingest_malloc_arenas(2)
        _ = ingest_malloc_mmap_threshold(1 << 20)
        _ = ingest_malloc_trim_threshold(4 << 20)
    }

    /// How many ORC compiles and frees libvips made through photoingest's lock (`orc_lock.c`).
    ///
    /// ORC before 0.4.34 frees without a lock of its own, and libvips before 8.15 compiles for
    /// every resize: issue 32's heap corruption. Non-zero once a resize was made with such a
    /// libvips, which shows that the executable's lock is the one libvips calls.
    static var serializedORCCalls: Int { ingest_orc_serialized_calls() }

    /// The version of the libvips that was opened (not of the headers photoingest was built with).
    static var version: (major: Int, minor: Int) { (Int(vips_version(0)), Int(vips_version(1))) }

    private static func start() throws(IngestError) {
        var reason = [CChar](repeating: 0, count: 512)
        guard ingest_vips_open(&reason, reason.count) == 0 else {
            throw IngestError(
                .invalidConfiguration,
                "libvips could not be loaded: \(String(nulTerminated: reason)) (is libvips42 installed?)")
        }
        guard ingest_jpeg_open(&reason, reason.count) == 0 else {
            throw IngestError(
                .invalidConfiguration,
                "libjpeg could not be loaded: \(String(nulTerminated: reason)) (is libjpeg62-turbo installed?)")
        }
        guard ingest_vips_init("photoingest") == 0 else {
            throw IngestError(.invalidConfiguration, "libvips could not start: \(VipsError.take())")
        }
        vips_concurrency_set(1)
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        ingest_vips_silence_warnings()
    }
}

enum VipsError {
    /// At most this many distinct messages are kept: a corrupt JPEG repeats the same warning per scan line.
    static let messageLimit = 3

    /// Decodes hold it shared; a decode whose error text must be its own alone holds it exclusive.
    static let lock = SharedLock()

    /// Reads and clears libvips's error buffer, as one line of its distinct messages, last (the fatal one) first.
    static func take() -> String {
        let message = vips_error_buffer().map { String(cString: $0) } ?? ""
        vips_error_clear()
        var seen = Set<String>()
        var distinct: [String] = []
        for line in message.split(separator: "\n").reversed() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if !text.isEmpty && seen.insert(text).inserted { distinct.append(text) }
        }
        return distinct.isEmpty ? "unknown libvips error" : distinct.prefix(Self.messageLimit).joined(separator: "; ")
    }
}

/// A readers-writer lock that lets a waiting writer in ahead of new readers, so that a rare
/// exclusive section is not starved by a steady stream of shared ones.
final class SharedLock: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() {
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(self.lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(self.lock)
        self.lock.deallocate()
    }

    func shared<Result, Failure>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_rwlock_rdlock(self.lock)
        defer { pthread_rwlock_unlock(self.lock) }
        return try body()
    }

    func exclusive<Result, Failure>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_rwlock_wrlock(self.lock)
        defer { pthread_rwlock_unlock(self.lock) }
        return try body()
    }
}

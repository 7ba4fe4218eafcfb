import CVipsShim
import Foundation
import IngestCore

/// Process-wide set-up of libvips, done once, on first use (``Thumbnailer`` calls it).
public enum ImagingLibrary {
    /// Starts libvips for photoingest's way of working: one image per worker thread.
    ///
    /// - One libvips thread per image: photoingest runs `--jobs` images side by side, which
    ///   scales almost linearly, while more libvips threads per image gain under 10%.
    /// - No operation cache: every file is new, so the cache only costs memory.
    /// - Two malloc arenas (glibc), so that resident memory stays flat over long runs.
    /// - Throws: ``IngestError`` when libvips cannot start (a broken installation).
    ///
    /// Safe to call more than once and from several threads: libvips starts once.
    public static func bootstrap() throws(IngestError) {
        try self.started.get()
    }

    /// Swift runs a static initialiser exactly once, whichever thread gets there first.
    private static let started = Result { () throws(IngestError) in try start() }

    private static func start() throws(IngestError) {
        guard ingest_vips_init("photoingest") == 0 else {
            throw IngestError(.invalidConfiguration, "libvips could not start: \(VipsError.take())")
        }
        // glibc gives every thread that allocates an arena of its own; with images decoded on
        // several threads, resident memory creeps up file after file. Two arenas keep it flat.
        _ = ingest_malloc_arenas(2)
        vips_concurrency_set(1)
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        ingest_vips_silence_warnings()
    }
}

enum VipsError {
    /// At most this many distinct messages are kept: a corrupt JPEG repeats the same warning per scan line.
    static let messageLimit = 3

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

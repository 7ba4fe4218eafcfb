import Foundation
import IngestCore
import IngestOutcome
import IngestPipeline
import SystemPackage

/// Writes the per-file report: one JSON object per line (NDJSON), as the files end, so that the
/// report of an interrupted run holds everything that ended.
///
/// A line speaks of one event's outcome for a file (`"scope": "event"`, with the event's name), or
/// of the file as a whole (`"scope": "file"`, `"event": null`): skipped, failed before any event,
/// or (with several events) outside every event.
public final class ReportWriter {
    private let file: OpenFile
    private let closesFile: Bool
    private var buffer = Data()
    /// Lines are flushed in batches (a write per file would cost more than the JSON), and at
    /// least every `flushInterval`, so that a killed run's report lacks at most its last moment.
    static let flushBytes = 64 << 10
    static let flushInterval: Duration = .milliseconds(200)
    private let clock = ContinuousClock()
    private var lastFlush: ContinuousClock.Instant
    /// Lines of the archive's run say `stored` where a server's say `uploaded`.
    private let atArchive: Bool
    /// Called once when the reader of standard output has gone (`| head` exited).
    private let onReaderGone: () -> Void
    /// Set once the reader has gone: nothing more is written.
    private var readerGone = false

    /// Opens `path` for writing (`-` is standard output). `onReaderGone` is called once when a
    /// write finds the pipe closed: the run then stops as after Ctrl-C.
    public init(path: String, atArchive: Bool, onReaderGone: @escaping () -> Void = {}) throws(IngestError) {
        self.atArchive = atArchive
        self.onReaderGone = onReaderGone
        if path == "-" {
            self.file = OpenFile(descriptor: STDOUT_FILENO)
            self.closesFile = false
        } else {
            do {
                self.file = try OpenFile(path, O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o644)
            } catch {
                throw IngestError(.invalidConfiguration, "cannot write the report to \(path): \(error)")
            }
            self.closesFile = true
        }
        self.lastFlush = self.clock.now
    }

    /// Writes one line: `event`'s outcome for the file, or with no event, the file's as a whole.
    public func write(_ outcome: FileOutcome, event: Event?) {
        self.buffer.append(Self.line(outcome, event: event, atArchive: self.atArchive))
        self.buffer.append(0x0A)
        if self.buffer.count >= Self.flushBytes || self.clock.now - self.lastFlush >= Self.flushInterval {
            self.flush()
        }
    }

    public func flush() {
        self.lastFlush = self.clock.now
        guard !self.buffer.isEmpty else { return }
        defer { self.buffer.removeAll(keepingCapacity: true) }
        guard !self.readerGone else { return }
        do {
            try self.file.writeAll(self.buffer)
        } catch Errno.brokenPipe {
            self.readerGone = true
            self.onReaderGone()
        } catch {
            // A full disk or the like: the report is the user's to check, the run goes on.
        }
    }

    public func close() {
        self.flush()
        if self.closesFile { self.file.close() }
    }

    /// One file's line, as JSON.
    static func line(_ outcome: FileOutcome, event: Event?, atArchive: Bool) -> Data {
        (try? CompactJSON.data(FileLine(outcome, event: event, atArchive: atArchive))) ?? Data("{}".utf8)
    }
}

import Foundation
import IngestCore
import IngestPipeline

/// Writes the per-file report: one JSON object per line (NDJSON), as the files end, so that the
/// report of an interrupted run holds everything that ended.
///
/// A line speaks of one event's outcome for a file (`"scope": "event"`, with the event's name), or
/// of the file as a whole (`"scope": "file"`, `"event": null`): skipped, failed before any event,
/// or (with several events) outside every event.
public final class ReportWriter {
    private let handle: FileHandle
    private let closesHandle: Bool
    private var buffer = Data()
    /// Lines are flushed in batches (a write per file would cost more than the JSON), and at
    /// least every `flushInterval`, so that a killed run's report lacks at most its last moment.
    static let flushBytes = 64 << 10
    static let flushInterval: Duration = .milliseconds(200)
    private let clock = ContinuousClock()
    private var lastFlush: ContinuousClock.Instant

    /// Opens `path` for writing (`-` is standard output).
    public init(path: String) throws(IngestError) {
        if path == "-" {
            self.handle = FileHandle.standardOutput
            self.closesHandle = false
        } else {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else {
                throw IngestError(.invalidConfiguration, "cannot write the report to \(path)")
            }
            self.handle = handle
            self.closesHandle = true
        }
        self.lastFlush = self.clock.now
    }

    /// Writes one line: `event`'s outcome for the file, or with no event, the file's as a whole.
    public func write(_ outcome: FileOutcome, event: Event?) {
        self.buffer.append(Self.line(outcome, event: event))
        self.buffer.append(0x0A)
        if self.buffer.count >= Self.flushBytes || self.clock.now - self.lastFlush >= Self.flushInterval {
            self.flush()
        }
    }

    public func flush() {
        self.lastFlush = self.clock.now
        guard !self.buffer.isEmpty else { return }
        try? self.handle.write(contentsOf: self.buffer)
        self.buffer.removeAll(keepingCapacity: true)
    }

    public func close() {
        self.flush()
        if self.closesHandle { try? self.handle.close() }
    }

    /// One file's line, as JSON.
    static func line(_ outcome: FileOutcome, event: Event?) -> Data {
        (try? CompactJSON.data(FileLine(outcome, event: event))) ?? Data("{}".utf8)
    }
}

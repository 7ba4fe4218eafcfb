import Foundation
import IngestCore
import Logging

/// swift-log lines as JSON objects, one per line on standard error, for journald, Kubernetes and
/// log shippers: `timestamp` (RFC 3339 in UTC), `level`, `message`, and the
/// metadata's dotted keys (`event`, `file.path`, `error.code`, …) at the top level.
struct JSONLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    let label: String

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var object: [String: Any] = [:]
        for (key, value) in self.metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = Self.plain(value)
        }
        object["timestamp"] = RFC3339.format(Date())
        object["level"] = event.level.rawValue
        object["message"] = event.message.description
        object["logger"] = self.label
        guard
            var line = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(UInt8(ascii: "\n"))
        // Whole lines, one at a time: lines from several threads never interleave.
        Self.output.withLock { _ in
            try? OpenFile.standardError.writeAll(line)
        }
    }

    static let output = Locked(())

    static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        // Counts stay numbers for the log's readers.
        case .stringConvertible(let convertible):
            if let count = convertible as? Int {
                count
            } else if let count = convertible as? Int64 {
                count
            } else {
                convertible.description
            }
        case .array(let values): values.map(Self.plain)
        case .dictionary(let values): values.mapValues(Self.plain)
        }
    }
}

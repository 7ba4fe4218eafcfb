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
        var object: [String: JSONValue] = [:]
        for (key, value) in self.metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = Self.plain(value)
        }
        object["timestamp"] = .string(RFC3339.format(Date()))
        object["level"] = .string(event.level.rawValue)
        object["message"] = .string(event.message.description)
        object["logger"] = .string(self.label)
        guard var line = try? CompactJSON.data(object) else { return }
        line.append(UInt8(ascii: "\n"))
        // Whole lines, one at a time: lines from several threads never interleave.
        Self.output.withLock { _ in
            try? OpenFile.standardError.writeAll(line)
        }
    }

    static let output = Locked(())

    static func plain(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        // Counts stay numbers for the log's readers.
        case .stringConvertible(let convertible):
            if let count = convertible as? Int {
                .int(count)
            } else if let count = convertible as? Int64 {
                .int(Int(count))
            } else {
                .string(convertible.description)
            }
        case .array(let values): .array(values.map(Self.plain))
        case .dictionary(let values): .object(values.mapValues(Self.plain))
        }
    }
}

import Foundation
import IngestCore

/// A line of figures from a reliability test (files, kills, faults injected, and what was lost,
/// duplicated or corrupted), printed for `scripts/reliability` to gather into its table.
public enum ReliabilityFigure {
    public static let prefix = "reliability-figure "

    public static func record(_ test: String, _ figures: KeyValuePairs<String, Int>) {
        var object: [String: JSONValue] = ["test": .string(test)]
        for (key, value) in figures { object[key] = .int(value) }
        print(Self.prefix + CompactJSON.text(object))
    }
}

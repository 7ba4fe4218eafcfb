import Foundation

/// A line of figures from a reliability test (files, kills, faults injected, and what was lost,
/// duplicated or corrupted), printed for `scripts/reliability` to gather into its table.
public enum ReliabilityFigure {
    public static let prefix = "reliability-figure "

    public static func record(_ test: String, _ figures: KeyValuePairs<String, Int>) {
        var object: [String: Any] = ["test": test]
        for (key, value) in figures { object[key] = value }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        print(Self.prefix + String(decoding: data, as: UTF8.self))
    }
}

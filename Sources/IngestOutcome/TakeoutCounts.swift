import Foundation
import IngestContainers
import IngestDiscovery

/// What a run made of a Google Takeout's JSONs: the files paired with one, by rule, the files
/// with none, and the JSONs no file took. Said in the summary, so that nothing is left out unseen.
public struct TakeoutCounts: Sendable, Equatable, Codable {
    /// Files paired with their JSON, by ``TakeoutPairing/Rule`` (`"name"`, `"shortened"`, …).
    public var paired: [String: Int]
    /// Files in a Takeout's folders that no JSON pairs with: dated as any file is.
    public var withoutJSON: Int
    /// JSONs that no file pairs with (an album's `metadata.json` is one): reported, not read.
    public var jsonWithoutFile: Int

    public init(paired: [String: Int] = [:], withoutJSON: Int = 0, jsonWithoutFile: Int = 0) {
        self.paired = paired
        self.withoutJSON = withoutJSON
        self.jsonWithoutFile = jsonWithoutFile
    }

    package init(_ tally: Discovery.Tally) {
        self.init(
            paired: Dictionary(uniqueKeysWithValues: tally.takeoutPaired.map { ($0.key.rawValue, $0.value) }),
            withoutJSON: tally.takeoutWithoutJSON, jsonWithoutFile: tally.takeoutLoneJSON)
    }

    /// Whether the run met no Takeout.
    public var isEmpty: Bool { self.paired.isEmpty && self.withoutJSON == 0 && self.jsonWithoutFile == 0 }

    /// The summary's line: `Google Takeout: 1204 files paired with their JSON (name 1100, …); …`.
    public var line: String {
        let total = self.paired.values.reduce(0, +)
        let rules = TakeoutPairing.Rule.allCases.compactMap { rule in
            self.paired[rule.rawValue].map { "\(rule.rawValue) \($0)" }
        }
        var parts = [
            "\(total) files paired with their JSON" + (rules.isEmpty ? "" : " (\(rules.joined(separator: ", ")))")
        ]
        if self.withoutJSON > 0 { parts.append("\(self.withoutJSON) without their JSON (dated as any file is)") }
        if self.jsonWithoutFile > 0 {
            parts.append("\(self.jsonWithoutFile) JSONs with no file beside them (album metadata among them)")
        }
        return "Google Takeout: " + parts.joined(separator: "; ")
    }
}

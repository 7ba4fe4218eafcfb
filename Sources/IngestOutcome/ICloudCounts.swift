import Foundation
import IngestDiscovery

/// What a run made of an iCloud export's `Photo Details.csv` files: the files a row dated, and
/// the files in those folders with no row of their own (dated as any file is).
public struct ICloudCounts: Sendable, Equatable, Codable {
    public var dated: Int
    public var withoutRow: Int

    public init(dated: Int = 0, withoutRow: Int = 0) {
        self.dated = dated
        self.withoutRow = withoutRow
    }

    package init(_ tally: Discovery.Tally) {
        self.init(dated: tally.icloudDated, withoutRow: tally.icloudWithoutRow)
    }

    /// Whether the run met no iCloud export.
    public var isEmpty: Bool { self.dated == 0 && self.withoutRow == 0 }

    /// The summary's line: `iCloud export: 212 files with a row in Photo Details.csv; 3 without`.
    public var line: String {
        "iCloud export: \(self.dated) files with a row in Photo Details.csv (their time, where they have none)"
            + (self.withoutRow > 0 ? "; \(self.withoutRow) without a row (dated as any file is)" : "")
    }
}

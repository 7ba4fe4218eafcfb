import Foundation
import Testing

@testable import IngestOutcome

@Suite struct ICloudCountsTests {
    @Test("The summary's line says how many files had a row and how many had none")
    func line() {
        #expect(
            ICloudCounts(dated: 212, withoutRow: 3).line
                == "iCloud export: 212 files with a row in Photo Details.csv (their time, where they have none); "
                + "3 without a row (dated as any file is)")
        #expect(ICloudCounts().isEmpty && !ICloudCounts(withoutRow: 1).isEmpty)
    }
}

import Foundation
import Testing

@testable import IngestOutcome

@Suite struct TakeoutCountsTests {
    @Test("The summary's line gives the files paired by rule in the rules' order, then what was left unpaired")
    func line() {
        let counts = TakeoutCounts(
            paired: ["edited": 2, "name": 1_100, "shortened": 80], withoutJSON: 312, jsonWithoutFile: 4)
        #expect(
            counts.line
                == "Google Takeout: 1182 files paired with their JSON (name 1100, shortened 80, edited 2); "
                + "312 without their JSON (dated as any file is); 4 JSONs with no file beside them (album metadata among them)"
        )
        #expect(TakeoutCounts().isEmpty && !counts.isEmpty)
        #expect(
            TakeoutCounts(withoutJSON: 1).line
                == "Google Takeout: 0 files paired with their JSON; 1 without their JSON (dated as any file is)")
    }
}

import Foundation
import IngestCore
import Testing

@Suite struct RFC3339Tests {
    @Test(
        "A time with no zone designator is UTC, never local time",
        arguments: [
            ("2025-09-27T21:00:00", 1_759_006_800.0),
            ("2025-09-27T21:00:00Z", 1_759_006_800.0),
            ("2025-09-27 21:00:00z", 1_759_006_800.0),
            ("2025-09-27T14:00:00-07:00", 1_759_006_800.0),
            ("2025-09-28T02:45:00+05:45", 1_759_006_800.0),
            ("2025-09-27T21:00", 1_759_006_800.0),
            ("2025-09-27", 1_758_931_200.0),
            ("2025-09-27T21:00:00.250Z", 1_759_006_800.25),
        ])
    func parses(text: String, epoch: Double) {
        #expect(RFC3339.parse(text)?.timeIntervalSince1970 == epoch)
    }

    @Test(arguments: [
        "", "2025-13-01", "2025-09-27T25:00:00", "2025-09-27T21:00:00+15:00", "yesterday", "2025-09-27T21:00:00 UTC",
    ])
    func refuses(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func formatsInUTCWithZ() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_759_006_800)) == "2025-09-27T21:00:00Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_759_006_800.5)) == "2025-09-27T21:00:00.500Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }

    @Test func civilDatesRoundTripAcrossCenturies() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let date = Date(timeIntervalSince1970: Double(days) * 86_400 + 3_723)
            let local = LocalDateTime(date, offsetSeconds: 0)
            #expect(local.isValid)
            #expect(local.instant(offsetSeconds: 0) == date)
        }
    }
}

@Suite struct EventWindowTests {
    let window = EventWindow(start: RFC3339.parse("2025-09-27T21:00:00Z"), end: RFC3339.parse("2025-09-28T05:00:00Z"))

    @Test func bothEndsAreIncluded() {
        #expect(self.window.contains(RFC3339.parse("2025-09-27T21:00:00Z")!))
        #expect(self.window.contains(RFC3339.parse("2025-09-28T05:00:00Z")!))
        #expect(!self.window.contains(RFC3339.parse("2025-09-28T05:00:00.001Z")!))
        #expect(!self.window.contains(RFC3339.parse("2025-09-27T20:59:59.999Z")!))
    }

    @Test func distanceSaysHowFarOutside() {
        #expect(self.window.distance(to: RFC3339.parse("2025-09-27T20:00:00Z")!) == 3_600)
        #expect(self.window.distance(to: RFC3339.parse("2025-09-28T05:30:00Z")!) == 1_800)
        #expect(self.window.distance(to: RFC3339.parse("2025-09-28T00:00:00Z")!) == 0)
    }

    @Test func openEndsHoldEverythingOnThatSide() {
        let open = EventWindow()
        #expect(open.contains(Date(timeIntervalSince1970: 0)))
        #expect(open.description == "../..")
        let from = EventWindow(start: RFC3339.parse("2025-01-01"))
        #expect(!from.contains(RFC3339.parse("2024-12-31T23:59:59Z")!))
        #expect(from.contains(RFC3339.parse("2090-01-01")!))
    }
}

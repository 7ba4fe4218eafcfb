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

    @Test("A local time's text is what `%04d-%02d-%02dT%02d:%02d:%02d` writes, milliseconds after a dot")
    func localTimeTextIsPrintfs() {
        var random = SplitMix64(seed: 56)
        for _ in 0..<2_000 {
            let time = LocalDateTime(
                year: Int(random.next() % 12_000) - 1_000, month: Int(random.next() % 12) + 1,
                day: Int(random.next() % 28) + 1, hour: Int(random.next() % 24), minute: Int(random.next() % 60),
                second: Int(random.next() % 60), millisecond: random.next() % 3 == 0 ? Int(random.next() % 1_000) : 0)
            var expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d", time.year, time.month, time.day, time.hour, time.minute,
                time.second)
            if time.millisecond != 0 { expected += String(format: ".%03d", time.millisecond) }
            #expect(time.description == expected)
        }
        #expect(LocalDateTime(year: 7, month: 1, day: 2, millisecond: 5).description == "0007-01-02T00:00:00.005")
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

import Foundation
import IngestCore
import IngestDating
import Testing

@testable import IngestOutcome

@Suite struct CameraTallyTests {
    static let window = EventWindow(
        start: RFC3339.parse("2025-09-27T18:00:00Z"), end: RFC3339.parse("2025-09-27T22:00:00Z"))
    static let phone = CameraBody(make: "Apple", model: "iPhone 15")
    static let camera = CameraBody(make: "Canon", model: "Canon EOS R6", serial: "222")

    /// A photo by `body` dated at `instant` (seconds after 18:00 UTC) from `source`.
    static func outcome(_ body: CameraBody, at seconds: Double, source: CaptureSource) -> [FileOutcome] {
        let instant = Self.window.start!.addingTimeInterval(seconds)
        var facts = FileFacts(path: "/p/\(body.model ?? "")-\(seconds).jpg", stamp: nil, kind: .jpeg)
        facts.capture = CaptureTime(instant: instant, source: source)
        facts.camera = body
        let verdict: Verdict = Self.window.contains(instant) ? .stored(note: nil) : .outside(by: 1)
        return [FileOutcome(facts, verdict)]
    }

    @Test("A camera whose bursts line up with a phone's an hour and two minutes later is suggested the offset")
    func suggestsFromBursts() {
        var tally = CameraTally(events: [Event(id: "e", name: "e", window: Self.window)])
        let moments: [Double] = [300, 1_210, 2_630, 4_020, 5_190, 6_870, 8_150, 9_900, 11_480, 13_020]
        for moment in moments {
            for shot in 0..<3 {
                tally.add(Self.outcome(Self.phone, at: moment + Double(shot), source: .exifOffset))
                tally.add(Self.outcome(Self.camera, at: moment + 3_750 + Double(shot), source: .exifAssumedZone))
            }
        }
        let summaries = tally.summaries()
        let camera = summaries.first { $0.body == Self.camera }
        #expect(camera?.suggestedClockOffset == -3_750)
        #expect(camera?.files == 30 && camera?.outside ?? 0 > 0)
        #expect(camera?.suggestedOption == "--clock-offset 'serial:222=-01:02:30'")
        #expect(summaries.first { $0.body == Self.phone }?.suggestedClockOffset == nil)
        var run = RunSummary(events: [])
        run.cameras = summaries
        #expect(run.cameraLines.first?.hasPrefix("Clock: Canon EOS R6 #222 looks 1 h 02 min 30 s fast (") == true)
    }

    @Test("With no trusted clock, a body's photos outside say where they lie")
    func withoutTrustedClocks() {
        var tally = CameraTally(events: [Event(id: "e", name: "e", window: Self.window)])
        for seconds: Double in [15_900, 17_400, 600] {
            tally.add(Self.outcome(Self.camera, at: seconds, source: .exifAssumedZone))
        }
        let camera = tally.summaries().first
        #expect(camera?.suggestedClockOffset == nil)
        #expect(camera?.basis == "no trusted clock in the run; 2 of 3 photos lie 25-50 min after the window")
    }

    @Test("Tens of thousands of photos keep a bounded sample of times, and still show a clock's offset")
    func boundedOverManyPhotos() throws {
        var tally = CameraTally(events: [Event(id: "e", name: "e", window: Self.window)])
        var moment = 0.0
        var state: UInt64 = 1
        for _ in 0..<1_000 {
            // Moments at uneven gaps (a linear congruential sequence), as an event's are: no other
            // offset lines the bursts up.
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            moment += Double(150 + (state >> 33) % 600)
            for shot in 0..<20 {
                tally.add(Self.outcome(Self.phone, at: moment + Double(shot), source: .exifOffset))
                tally.add(Self.outcome(Self.camera, at: moment + 3_750 + Double(shot), source: .exifAssumedZone))
            }
        }
        let body = try #require(tally.bodies[Self.camera])
        #expect(body.files == 20_000 && body.times.seen == 20_000)
        // Past 12,000, one time in two is kept, of either side.
        #expect(body.times.values.count == 10_000)
        #expect(tally.trustedTimes.values.count == 10_000)
        #expect(body.outsideBy.map { $0.lowerBound > 0 } == true)
        let camera = tally.summaries().first { $0.body == Self.camera }
        #expect(camera?.suggestedClockOffset == -3_750)
    }
}

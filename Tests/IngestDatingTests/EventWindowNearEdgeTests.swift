import Foundation
import IngestCore
import IngestDating
import Testing

@Suite struct EventWindowNearEdgeTests {
    let window = EventWindow(start: RFC3339.parse("2025-09-27T21:00:00Z"), end: RFC3339.parse("2025-09-28T05:00:00Z"))

    @Test("Photos near the edges, or inside only in the assumed zone, are flagged")
    func nearEdge() {
        let hour: TimeInterval = 3_600
        func capture(_ instant: String, _ source: CaptureSource = .exifOffset) -> CaptureTime {
            let date = RFC3339.parse(instant)!
            return CaptureTime(
                instant: date, localTime: LocalDateTime(date, offsetSeconds: 0), offsetSeconds: 0, source: source)
        }
        #expect(self.window.nearEdge(capture("2025-09-27T20:30:00Z"), margin: hour) == .outside(by: 1_800))
        #expect(self.window.nearEdge(capture("2025-09-27T19:30:00Z"), margin: hour) == nil)
        // Inside with a known offset: nothing to check.
        #expect(self.window.nearEdge(capture("2025-09-28T01:00:00Z"), margin: hour) == nil)
        // Inside with a guessed zone: an hour either way (summer or winter time) moves a photo
        // half an hour from the start out; one in the middle stays in.
        #expect(
            self.window.nearEdge(capture("2025-09-27T21:30:00Z", .exifAssumedZone), margin: hour)
                == .insideOnlyWithAssumedZone)
        let middle = capture("2025-09-28T01:00:00Z", .exifAssumedZone)
        #expect(self.window.nearEdge(middle, margin: hour) == nil)
        // The zone another photo of the run was taken in (-07:00) is plausible too.
        #expect(self.window.nearEdge(middle, margin: hour, otherOffsets: [-25_200]) == .insideOnlyWithAssumedZone)
        // A zone the user gave is no guess; --near-edge 0 lists nothing.
        #expect(self.window.nearEdge(middle, margin: hour, otherOffsets: nil) == nil)
        #expect(self.window.nearEdge(capture("2025-09-27T20:30:00Z"), margin: 0) == nil)
        let wide = EventWindow(start: RFC3339.parse("2025-09-01"), end: RFC3339.parse("2025-10-01"))
        #expect(wide.nearEdge(capture("2025-09-15T12:00:00Z", .exifAssumedZone), margin: hour) == nil)
        #expect(NearEdge.outside(by: 61).description == "outside the window by 2 min")
    }
}

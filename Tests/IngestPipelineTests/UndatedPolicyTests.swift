import Foundation
import IngestCore
import Testing

@testable import IngestPipeline

@Suite struct UndatedPolicyTests {
    let window = EventWindow(start: RFC3339.parse("2024-05-04T10:00:00Z")!, end: RFC3339.parse("2024-05-06T10:00:00Z")!)

    @Test("A file dated by its modification time alone: placed only where no window is, unless asked")
    func modificationTimeAlone() {
        #expect(UndatedPolicy.open.verdict(in: EventWindow()) == nil)
        #expect(UndatedPolicy.open.verdict(in: self.window)?.status == .undated)
        #expect(UndatedPolicy.open.verdict(in: EventWindow(start: Date()))?.status == .undated, "one end is a window")
        #expect(UndatedPolicy.mtime.verdict(in: self.window) == nil)
        #expect(UndatedPolicy.skip.verdict(in: EventWindow())?.status == .skipped)
        #expect(UndatedPolicy.skip.verdict(in: self.window)?.reason?.contains("--undated skip") == true)
    }

    @Test("A day from a name: inside a window holding all of it, outside one holding none, else undated")
    func wholeDays() {
        func day(_ start: String) -> ClosedRange<Date> {
            let first = RFC3339.parse(start)!
            return first...first.addingTimeInterval(86_400 - 0.001)
        }
        let inside = EventStage.place(day("2024-05-05T00:00:00Z"), in: self.window)
        #expect(inside.isInside)
        let before = EventStage.place(day("2024-05-03T00:00:00Z"), in: self.window)
        #expect(!before.isInside && before.weakTime == nil)
        #expect(abs(before.distance - 36_000.001) < 1e-6, "from the day's last instant to the window's start")
        let after = EventStage.place(day("2024-05-07T00:00:00Z"), in: self.window)
        #expect(after.distance == 50_400, "from the day's first instant to the window's end")
        let partial = EventStage.place(day("2024-05-04T00:00:00Z"), in: self.window)
        #expect(partial.weakTime?.status == .undated)
        #expect(!partial.isInside)
        #expect(EventStage.place(day("2024-05-04T00:00:00Z"), in: EventWindow()).isInside)
    }
}

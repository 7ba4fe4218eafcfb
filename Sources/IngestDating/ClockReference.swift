import Foundation
import IngestCore

/// A reference shot (`--clock-reference FILE=TIME`): a photo that a body took at a known true
/// time (of a phone's clock, or of a GPS screen). Its body's offset is the true time minus the
/// time the camera gave it; two of one body at different times give its drift.
public struct ClockReference: Sendable, Equatable {
    /// The camera's clock when it took the shot, as the wall time it wrote.
    public var cameraClock: LocalDateTime
    /// Seconds to add to that clock to get the true time.
    public var seconds: Double

    public init(cameraClock: LocalDateTime, seconds: Double) {
        self.cameraClock = cameraClock
        self.seconds = seconds
    }

    /// `photo.jpg=2025-09-27T21:55:00Z`: the file and the true time; nil for anything else. The
    /// file is the text before the last `=`, so a name may hold one.
    public static func parse(_ text: String) -> (path: String, time: Date)? {
        guard let equals = text.lastIndex(of: "="), equals != text.startIndex,
            let time = RFC3339.parse(String(text[text.index(after: equals)...]).trimmingCharacters(in: .whitespaces))
        else { return nil }
        return (String(text[..<equals]), time)
    }

    /// The offset at `clock` from a body's references: the one there is, or the straight line
    /// through the two around `clock` (through the first or last two, beyond them), to the second.
    public static func seconds(at clock: LocalDateTime, from references: [ClockReference]) -> Int? {
        let points = references.sorted { $0.cameraClock.secondsAsIfUTC < $1.cameraClock.secondsAsIfUTC }
        guard let first = points.first else { return nil }
        guard points.count > 1 else { return Int(first.seconds.rounded()) }
        let x = clock.secondsAsIfUTC
        let upper = points.firstIndex { $0.cameraClock.secondsAsIfUTC > x } ?? points.count - 1
        let (left, right) = (points[max(upper, 1) - 1], points[max(upper, 1)])
        let span = right.cameraClock.secondsAsIfUTC - left.cameraClock.secondsAsIfUTC
        guard span > 0 else { return Int(left.seconds.rounded()) }
        let share = (x - left.cameraClock.secondsAsIfUTC) / span
        return Int((left.seconds + share * (right.seconds - left.seconds)).rounded())
    }
}

import Foundation
import IngestCore

extension EventWindow {
    /// Whether a photo's place relative to the window is worth a second look: where a wrong time
    /// zone bites. `margin` is how close to an edge an outside photo must be to count; 0 lists
    /// nothing.
    ///
    /// A photo inside is listed only when its zone was guessed (this machine's, not one the user
    /// gave) and a plausible other offset would put it outside: an hour either way (a clock left
    /// on summer or winter time), or `otherOffsets`, those the run's other photos were taken at
    /// (seconds east of UTC). `otherOffsets` nil says the zone was the user's: no guess.
    public func nearEdge(_ capture: CaptureTime, margin: TimeInterval, otherOffsets: Set<Int>? = []) -> NearEdge? {
        guard margin > 0 else { return nil }
        let distance = self.distance(to: capture.instant)
        if distance > 0 {
            return distance <= margin ? .outside(by: distance) : nil
        }
        guard capture.source == .exifAssumedZone, let wall = capture.localTime, let otherOffsets else { return nil }
        let assumed = Int((wall.secondsAsIfUTC - capture.instant.timeIntervalSince1970).rounded())
        for offset in otherOffsets.union([assumed - 3_600, assumed + 3_600]) where offset != assumed {
            if !self.contains(Date(timeIntervalSince1970: wall.secondsAsIfUTC - Double(offset))) {
                return .insideOnlyWithAssumedZone
            }
        }
        return nil
    }
}

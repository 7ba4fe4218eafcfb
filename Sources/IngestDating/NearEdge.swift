import Foundation
import IngestCore

/// Why a photo is listed at the end of a run for a second look.
public enum NearEdge: Sendable, Equatable, CustomStringConvertible {
    /// Outside the window, but by less than the margin.
    case outside(by: TimeInterval)
    /// Inside, but only in the zone that was assumed for its EXIF time.
    case insideOnlyWithAssumedZone

    public var description: String {
        switch self {
        case .outside(let seconds):
            let minutes = Int((seconds / 60).rounded(.up))
            return "outside the window by \(minutes) min"
        case .insideOnlyWithAssumedZone:
            return "inside the window only in the assumed time zone"
        }
    }
}

import Foundation
import IngestDating
import IngestZones

/// What a run's times mean: the zone a time without one is read in, the zone map for GPS
/// positions, and the camera clocks to correct.
struct RunDating {
    var zone: TimeZone
    var zones: ZoneBoundaries?
    var clocks: ClockCorrections
}

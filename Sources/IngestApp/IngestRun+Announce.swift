import Foundation
import IngestCore
import IngestZones

/// What a run says before its first file: its events and their windows, how the bounds and the
/// times without an offset are read.
extension IngestRun {
    /// Names the run's events and their windows (in UTC, and as the clocks of `zone` read
    /// them), before the first file.
    static func announce(_ events: [Event], zone: TimeZone, console: Console) {
        for (index, event) in events.enumerated() {
            let heading =
                events.count > 1
                ? "Event \(index + 1) of \(events.count): \(event.name), " : "Event \"\(event.name)\", "
            console.status(heading + Self.describe(event.window, in: zone))
        }
        // A server may hold events of one name: the summary and the report name events.
        for (name, alike) in Dictionary(grouping: events, by: \.name).sorted(by: { $0.key < $1.key })
        where alike.count > 1 {
            console.status(
                "warning: \(alike.count) events are named \(name) (\(alike.map(\.id).joined(separator: ", "))): "
                    + "the summary and the report name them alike; --event takes an id to pick one",
                always: true)
        }
    }

    /// With `--timezone`, a bound of `--from`/`--until` with no offset is still UTC: says so, and
    /// what the other reading would be, since the two readings differ by hours.
    func sayHowBoundsRead(in zone: TimeZone, console: Console) {
        guard self.settings.timezone != nil, self.settings.connection.serverURL == nil else { return }
        for (key, bound) in [("from", self.settings.from), ("until", self.settings.until)] {
            guard let bound, !bound.namesItsOffset else { continue }
            let (text, utc) = (bound.text, bound.instant)
            let inZone = utc.addingTimeInterval(-Double(zone.secondsFromGMT(for: utc)))
            console.status(
                "\(self.settings.origins.name(key)) \(text) names no offset: read as UTC, \(RFC3339.format(utc)); "
                    + "in \(zone.name) (--timezone) it would be \(RFC3339.format(inZone)). Give an offset to say which.",
                always: true)
        }
    }

    /// Says where times without an offset are read: the zone at a photo's GPS position when
    /// there are zone boundaries, else `zone`.
    func announce(_ zone: TimeZone, zones: ZoneBoundaries?, console: Console) {
        console.status(
            "Time zone for EXIF times without an offset: "
                + (zones.map { "the zone at the GPS position (\($0.path), data \($0.dataVersion)), else " } ?? "")
                + zone.name
                + (self.settings.timezone == nil ? " (this machine's; --timezone to change)" : ""))
        if zones == nil {
            console.status(
                "GPS positions unused: no time-zone boundaries in "
                    + ZoneBoundaries.standardPaths().joined(separator: " or ")
                    + " (scripts/zone-data makes them, or give --zone-data)")
        }
    }
}

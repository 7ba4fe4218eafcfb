import Foundation
import IngestCore
import IngestDating
import IngestPipeline
import IngestZones

extension IngestRun {
    /// What the run's times mean, each said: the zone (with a warning when it is this machine's
    /// guess from a variable that looks wrong), the zone map, the camera clocks. The settings'
    /// own warnings and a watch's fixed token that runs out are said here too, first.
    func dating(console: Console) throws -> RunDating {
        let zone = self.zone()
        if self.settings.timezone == nil, let warning = Defaults.zoneVariableWarning() {
            console.status("warning: " + warning, always: true)
        }
        for warning in self.settings.warnings { console.status("warning: " + warning, always: true) }
        if self.watching, let warning = self.settings.connection.fixedTokenWarning(now: Date()) {
            console.status("warning: " + warning, always: true)
        }
        let zones = try self.zoneBoundaries(console: console)
        self.announce(zone, zones: zones, console: console)
        let clocks = try self.clockCorrections(zone: zone, zones: zones, console: console)
        return RunDating(zone: zone, zones: zones, clocks: clocks)
    }

    /// The camera clocks the run corrects: the offsets given, and each body's reference shots,
    /// read now (each said, with the offset it gives its body).
    ///
    /// - Throws: ``IngestError`` for a reference that cannot be read or holds no camera time.
    func clockCorrections(zone: TimeZone, zones: ZoneBoundaries?, console: Console) throws -> ClockCorrections {
        var corrections = ClockCorrections(offsets: self.settings.clockOffsets)
        let stage = CaptureTimeStage(resolver: CaptureTimeResolver(assumedZone: zone, zones: zones))
        for (path, time) in self.settings.clockReferences {
            let (body, reference) = try stage.reference(path, at: time)
            corrections.references[body, default: []].append(reference)
            console.status(
                "Clock reference \(path): \(body.description)'s clock read \(reference.cameraClock) at "
                    + "\(RFC3339.format(time)), so its times get \(ClockOffset.format(Int(reference.seconds.rounded())))"
            )
        }
        return corrections
    }
}

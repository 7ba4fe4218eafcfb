import Foundation
import IngestCore
import IngestDating
import IngestPipeline
import IngestZones

extension IngestRun {
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

import Foundation
import IngestCore
import IngestDating

/// What a run saw of each camera body, file by file: how many files, how many outside, and the
/// times of its photos, apart from those of clocks that can be trusted; at the end, each body's
/// ``CameraSummary``, with the clock offset its photos suggest (``ClockSkew``).
///
/// Its memory does not grow with the files: a watch lives for days. The times are thinned samples
/// (``ThinnedSample``), which ``ClockSkew`` samples again.
package struct CameraTally {
    struct Body {
        var files = 0
        var outside = 0
        /// The instants (seconds) of its photos dated by its own, uncorrected clock.
        var times = ThinnedSample(limit: CameraTally.sampleLimit)
        var trusted = false
        var clockOffsets: Set<Int> = []
        /// The farthest before (negative seconds) and after (positive) the run's one window its
        /// outside photos lie.
        var outsideBy: ClosedRange<Double>?
    }

    /// Times kept of each side: several times what ``ClockSkew`` looks at, so that its even
    /// spread is over the whole run.
    static let sampleLimit = 12_000

    private(set) var bodies: [CameraBody: Body] = [:]
    /// The instants of the photos dated by a trusted clock: a phone's offset, a GPS fix or position.
    private(set) var trustedTimes = ThinnedSample(limit: CameraTally.sampleLimit)
    /// The window of a run with one event, for saying where a body's outside photos lie.
    let window: EventWindow?

    package init(events: [Event]) {
        self.window = events.count == 1 ? events[0].window : nil
    }

    /// Makers of phones: their clocks keep network time, and the offsets they write are right.
    static let phoneMakers: Set<String> = [
        "apple", "google", "samsung", "xiaomi", "huawei", "honor", "oneplus", "motorola", "oppo", "vivo", "realme",
        "nothing",
    ]

    /// Counts one file, from its outcomes in every event (its facts are the same in each).
    package mutating func add(_ outcomes: [FileOutcome]) {
        guard let first = outcomes.first, let body = first.camera, !body.isEmpty, let capture = first.capture else {
            return
        }
        // Taken out while it changes, so that its samples are not copied for every file.
        var entry = self.bodies.removeValue(forKey: body) ?? Body()
        entry.files += 1
        let outside = outcomes.allSatisfy { $0.status == .outside }
        if outside {
            entry.outside += 1
            if let window = self.window {
                let instant = capture.instant
                let by =
                    window.start.map { instant < $0 } == true
                    ? -window.distance(to: instant) : window.distance(to: instant)
                entry.outsideBy = entry.outsideBy.map { min($0.lowerBound, by)...max($0.upperBound, by) } ?? by...by
            }
        }
        let time = capture.instant.timeIntervalSince1970
        if Self.isTrusted(capture, body: body) {
            entry.trusted = true
            self.trustedTimes.add(time)
        } else if let offset = capture.clockOffset {
            entry.clockOffsets.insert(offset)
        } else if capture.source.readsCameraClock {
            entry.times.add(time)
        }
        self.bodies[body] = entry
    }

    /// Whether the time comes from a clock that keeps true time: a GPS fix or position, or a
    /// phone's clock with the offset it wrote.
    static func isTrusted(_ capture: CaptureTime, body: CameraBody) -> Bool {
        switch capture.source {
        case .exifGPSAgreed, .exifGPSOffset, .exifGPSPosition, .gpsUTC: return true
        case .exifOffset, .quickTimeOffset:
            return capture.clockOffset == nil && Self.phoneMakers.contains((body.make ?? "").lowercased())
        default: return false
        }
    }

    /// Each body's summary, the bodies with most files first.
    package func summaries() -> [CameraSummary] {
        self.bodies.sorted { ($0.value.files, $1.key.description) > ($1.value.files, $0.key.description) }.map {
            body, entry in
            var summary = CameraSummary(
                body: body, files: entry.files, outside: entry.outside,
                clockOffset: entry.clockOffsets.count == 1 ? entry.clockOffsets.first : nil)
            guard !entry.trusted, entry.clockOffsets.isEmpty else { return summary }
            guard self.trustedTimes.seen > 0 else {
                summary.basis = Self.whereOutside(entry)
                return summary
            }
            guard let finding = ClockSkew.find(entry.times.values, trusted: self.trustedTimes.values), finding.isClear
            else {
                summary.basis = "no clear line-up with the trusted clocks' photos"
                return summary
            }
            let lined =
                "\(finding.matched) of its \(finding.bursts) bursts line up with trusted clocks' photos within "
                + "\(Int(ClockSkew.tolerance)) s; the best offset far from it lines up \(finding.runnerUp)"
            if abs(finding.seconds) < 60 {
                summary.basis = "its clock agrees with the trusted ones: " + lined
            } else {
                summary.suggestedClockOffset = finding.seconds
                summary.basis = lined
            }
            return summary
        }
    }

    /// With no trusted clock in the run: where the body's outside photos lie, when they do.
    static func whereOutside(_ entry: Body) -> String? {
        guard let low = entry.outsideBy?.lowerBound, let high = entry.outsideBy?.upperBound else {
            return "no trusted clock (a phone's, a GPS fix) in the run to compare with"
        }
        let side = low > 0 ? "after" : high < 0 ? "before" : "around"
        let minutes = { (seconds: Double) in Int((abs(seconds) / 60).rounded()) }
        let span =
            side == "around" ? "" : " \(minutes(min(abs(low), abs(high))))-\(minutes(max(abs(low), abs(high)))) min"
        return "no trusted clock in the run; \(entry.outside) of \(entry.files) photos lie\(span) \(side) the window"
    }
}

import Foundation
import IngestCore

extension RunReport {
    /// The run's elapsed-time line.
    public static func elapsedLine(_ seconds: Double, files: Int, filesPerSecond: Double, bytes: Int64) -> String {
        String(
            format: "Elapsed %.1f s (%d files, %.1f files/s, %.1f MB read)", seconds, files, filesPerSecond,
            Double(bytes) / 1e6)
    }

    /// The summary line, with this run's failures and the files left pending beside it (never in it).
    public var closingLine: String {
        self.statusCounts.closingLine(dryRun: self.dryRun, notReached: self.notReached)
    }

    /// What is worth a look in this event, before the summary: failures by reason, skipped files,
    /// known broken files, files dated by their mtime, photos near the window's edges.
    public var details: [String] { self.details(perFileReport: true) }

    /// ``details``, pointing to the `--report` file when the run writes one, and to the option
    /// that would when it does not.
    public func details(perFileReport: Bool) -> [String] {
        let everyOne = perFileReport ? "the --report file" : "--report FILE"
        var lines: [String] = []
        let failed = self.count(.failed)
        if failed > 0 {
            lines.append("Failed: \(failed) (\(everyOne) lists every one)")
            for (reason, tally) in self.failureReasons.sorted(by: {
                ($0.value.count, $1.key) > ($1.value.count, $0.key)
            }) {
                lines.append("  \(reason): \(tally.count)")
                for example in tally.examples { lines.append("    " + Self.shortened(example)) }
                if tally.count > tally.examples.count { lines.append("    …") }
            }
        }
        let pending = self.count(.pending)
        if pending > 0 {
            lines.append("Pending: \(pending) stopped in flight, not failed; the next run does them")
        }
        if self.notReached > 0 {
            lines.append("Not reached: \(self.notReached) the run stopped before; the next run does them")
        }
        if !self.givenAgain.isEmpty {
            let count = self.givenAgain.values.reduce(0) { $0 + $1.count }
            lines.append("Given again: \(count)")
            for (reason, tally) in self.givenAgain.sorted(by: { ($0.value.count, $1.key) > ($1.value.count, $0.key) }) {
                lines.append(
                    "  \(reason): \(tally.count) (" + tally.examples.joined(separator: ", ")
                        + (tally.count > tally.examples.count ? ", …" : "") + ")")
            }
        }
        let skipped = self.count(.skipped) - self.knownBroken
        if skipped > 0 {
            lines.append("Skipped: \(skipped)")
            for (reason, tally) in self.skippedReasons.sorted(by: { $0.value.count > $1.value.count }) {
                var line = "  \(reason): \(tally.count)"
                if reason != FileOutcome.unchangedReason {
                    line +=
                        " (" + tally.examples.joined(separator: ", ")
                        + (tally.count > tally.examples.count ? ", …" : "") + ")"
                }
                lines.append(line)
            }
        }
        if self.count(.undated) > 0 {
            lines.append("Undated: \(self.count(.undated)) with no time to place them in the window")
            for (reason, tally) in self.undatedReasons.sorted(by: {
                ($0.value.count, $1.key) > ($1.value.count, $0.key)
            }) {
                lines.append(
                    "  \(reason): \(tally.count) (" + tally.examples.joined(separator: ", ")
                        + (tally.count > tally.examples.count ? ", …" : "") + ")")
            }
        }
        if self.knownBroken > 0 {
            lines.append(
                "\(self.knownBroken) known broken \(self.knownBroken == 1 ? "file" : "files"), unchanged; "
                    + "--report lists them, --retry-failed tries them again (after a library upgrade or with a higher --max-pixels)"
            )
        }
        if self.datedByFileTime > 0 {
            lines.append("\(self.datedByFileTime) dated by file time, not by the camera (no capture time in the file)")
        }
        if self.nearEdgeCount > 0 {
            lines.append("Near the window's edges, check their time zone: \(self.nearEdgeCount)")
            for outcome in self.nearEdge {
                guard let capture = outcome.capture, let nearEdge = outcome.nearEdge else { continue }
                var how = capture.source.rawValue
                if let zone = capture.zone { how += " " + zone }
                lines.append(
                    "  \(PathBytes.printable(outcome.path)): \(nearEdge) (taken \(RFC3339.format(capture.instant)), \(how))"
                )
            }
            if self.nearEdgeCount > self.nearEdge.count {
                lines.append(
                    "  … and \(self.nearEdgeCount - self.nearEdge.count) more (\(everyOne) marks every one)")
            }
        }
        return lines
    }

    /// An example line kept to one terminal line's worth.
    static func shortened(_ text: String) -> String {
        text.count > 200 ? String(text.prefix(199)) + "…" : text
    }
}

import Foundation
import IngestCore

extension RunReport {
    /// The end-of-run text: the summary line, then failures and skipped files with their
    /// reasons, then the elapsed time.
    public var text: String { self.eventText + "\n" + Self.elapsedLine(self.elapsedSeconds, files: self.filesSeen, filesPerSecond: self.filesPerSecond, bytes: self.bytesRead) }

    /// The run's closing line.
    public static func elapsedLine(_ seconds: Double, files: Int, filesPerSecond: Double, bytes: Int64) -> String {
        String(format: "Elapsed %.1f s (%d files, %.1f files/s, %.1f MB read)", seconds, files, filesPerSecond, Double(bytes) / 1e6)
    }

    /// The text of this event alone, without the elapsed time: for a run over several events,
    /// which ends with one elapsed line for all of them.
    public var eventText: String {
        var lines: [String] = []
        lines.append((self.dryRun ? "Dry run, nothing written: " : "") + self.summaryLine)
        let failed = self.count(.failed)
        if failed > 0 {
            lines.append("Failed: \(failed)")
            for outcome in self.failures {
                lines.append("  \(PathBytes.printable(outcome.path)): \(outcome.reason ?? "failed")")
            }
            if failed > self.failures.count {
                lines.append("  … and \(failed - self.failures.count) more (the --report file lists every one)")
            }
        }
        let skipped = self.count(.skipped)
        if skipped > 0 {
            lines.append("Skipped: \(skipped)")
            for (reason, tally) in self.skippedReasons.sorted(by: { $0.value.count > $1.value.count }) {
                var line = "  \(reason): \(tally.count)"
                if reason != FileOutcome.unchangedReason {
                    line += " (" + tally.examples.map(PathBytes.printable).joined(separator: ", ") + (tally.count > tally.examples.count ? ", …" : "") + ")"
                }
                lines.append(line)
            }
        }
        if self.nearEdgeCount > 0 {
            lines.append("Near the window's edges, check their time zone: \(self.nearEdgeCount)")
            for outcome in self.nearEdge {
                guard let capture = outcome.capture, let nearEdge = outcome.nearEdge else { continue }
                var how = capture.source.rawValue
                if let zone = capture.assumedZone { how += " " + zone }
                lines.append("  \(PathBytes.printable(outcome.path)): \(nearEdge) (taken \(RFC3339.format(capture.instant)), \(how))")
            }
            if self.nearEdgeCount > self.nearEdge.count {
                lines.append("  … and \(self.nearEdgeCount - self.nearEdge.count) more (the --report file marks every one)")
            }
        }
        if self.hiddenEntries > 0 {
            lines.append("Hidden files and folders passed over: \(self.hiddenEntries) (--include-hidden to take them)")
        }
        if let fatal = self.fatalError {
            lines.append("Stopped: \(fatal)")
        } else if self.interrupted {
            lines.append("Stopped before the end: the next run picks up the files not done.")
        }
        if let problem = self.catalogProblem {
            lines.append("Catalog: \(problem)")
        }
        return lines.joined(separator: "\n")
    }
}

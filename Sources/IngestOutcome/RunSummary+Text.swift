import Foundation
import IngestCore

extension RunSummary {
    /// The end-of-run text. With one event: failures grouped by reason and skipped files, why
    /// the run stopped, the elapsed time, and the summary line last, where the eye lands. With
    /// several: each event's details, what holds for the whole run (said once), the elapsed time,
    /// the photos outside every event's window, and last each event's summary line.
    ///
    /// `perFileReport`: whether the run writes a `--report` file, which the text points to.
    public func text(outsideAllEvents: Int = 0, perFileReport: Bool = true) -> String {
        guard self.events.count != 1 else {
            let report = self.events[0]
            let elapsed = RunReport.elapsedLine(
                self.elapsedSeconds, files: report.filesSeen, filesPerSecond: self.filesPerSecond(of: report),
                bytes: report.bytesRead)
            return (report.details(perFileReport: perFileReport) + self.runLines + [elapsed, report.closingLine])
                .joined(separator: "\n")
        }
        var lines: [String] = []
        let count = self.events.count
        for (index, report) in self.events.enumerated() {
            let details = report.details(perFileReport: perFileReport)
            guard !details.isEmpty else { continue }
            lines.append("Event \(index + 1) of \(count), \(report.event.name):")
            lines += details
        }
        lines += self.runLines
        lines.append(
            RunReport.elapsedLine(
                self.elapsedSeconds, files: self.filesDone, filesPerSecond: self.filesPerSecond, bytes: self.bytesRead))
        lines.append("All events: \(outsideAllEvents) photos outside every event's window")
        for (index, report) in self.events.enumerated() {
            lines.append("Event \(index + 1) of \(count), \(report.event.name): \(report.closingLine)")
        }
        return lines.joined(separator: "\n")
    }

    /// A line per camera body whose clock its photos say is off, with the option that corrects
    /// it, and per body with photos outside and no trusted clock to compare with, where they lie.
    public var cameraLines: [String] {
        self.cameras.compactMap { camera in
            if let seconds = camera.suggestedClockOffset, let option = camera.suggestedOption {
                let (how, magnitude) = seconds < 0 ? ("fast", -seconds) : ("slow", seconds)
                return "Clock: \(camera.body.description) looks \(Self.duration(magnitude)) \(how) "
                    + "(\(camera.basis ?? "")); to correct it: \(option)"
            }
            guard camera.outside > 0, camera.clockOffset == nil, let basis = camera.basis,
                basis.hasPrefix("no trusted clock in the run;")
            else { return nil }
            return "Clock: \(camera.body.description): \(basis)"
        }
    }

    /// `1 h 02 min 30 s`.
    static func duration(_ seconds: Int) -> String {
        var parts: [String] = []
        if seconds >= 3_600 { parts.append("\(seconds / 3_600) h") }
        if seconds % 3_600 >= 60 || seconds >= 3_600 { parts.append(String(format: "%02d min", seconds / 60 % 60)) }
        parts.append(String(format: "%02d s", seconds % 60))
        return parts.joined(separator: " ")
    }

    /// What holds for the whole run, whatever the number of events: the cameras' clocks, entries
    /// excluded and hidden ones passed over, why the run stopped, a catalog problem. Said once.
    public var runLines: [String] {
        var lines: [String] = self.cameraLines
        if !self.excluded.isEmpty {
            // Most first, then by name: the rule that took the most is the one to check.
            let rules = self.excluded.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            let total = rules.reduce(0) { $0 + $1.value }
            lines.append(
                "\(total) excluded: "
                    + rules.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                    + " (--include GLOB takes a name back)")
        }
        if self.zipFiles > 0 {
            lines.append("Zip files read in place (their entries counted as files): \(self.zipFiles)")
        }
        if !self.takeout.isEmpty { lines.append(self.takeout.line) }
        if !self.icloud.isEmpty { lines.append(self.icloud.line) }
        if self.withSidecars > 0 {
            lines.append("Files with an XMP sidecar, dated by it where it holds a time: \(self.withSidecars)")
        }
        if self.hiddenEntries > 0 {
            lines.append("Hidden files and folders passed over: \(self.hiddenEntries) (--include-hidden to take them)")
        }
        if let fatal = self.fatalError {
            let gone = fatal.code == .serverUnreachable
            lines.append("Stopped: \(fatal.message)" + (gone ? "; the files not done are left for the next run" : ""))
        } else if let words = self.deadlineWords {
            lines.append("Stopped at \(words): no new file was started after it; the files in flight finished.")
        } else if self.interrupted {
            lines.append("Stopped before the end: the next run picks up the files not done.")
        }
        if self.stoppedEarly {
            let left = self.notReached + self.leftInFlight
            lines.append(
                "Left for the next run: \(left) \(left == 1 ? "file" : "files") (\(self.leftInFlight) stopped in "
                    + "flight, \(self.notReached) not reached; the walk went on to count them)")
        }
        if let problem = self.catalogProblem {
            lines.append("Catalog: \(problem.message)")
        }
        return lines
    }
}

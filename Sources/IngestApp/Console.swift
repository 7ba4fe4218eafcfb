import Foundation
import Logging

/// Where text goes: machine output on standard output; status and summary on standard output
/// too, unless standard output carries JSON, in which case they go to standard error.
/// With --log-format json, status lines are log lines, so that standard error is JSON throughout.
struct Console {
    var quiet: Bool
    var stdoutTaken: Bool
    var log: Logger?

    func status(_ line: String, always: Bool = false) {
        guard always || !self.quiet else { return }
        if let log = self.log {
            // What must be seen whatever the level (a warning, a wait, a bug) is a warning.
            let warning = line.hasPrefix("warning: ")
            log.log(
                level: warning || always ? .warning : .info, "\(warning ? String(line.dropFirst(9)) : line)",
                metadata: ["event": "run.status"])
            return
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    func summary(_ text: String) {
        guard !self.quiet else { return }
        // Standard error carries JSON lines: the text is one of them.
        if self.stdoutTaken, let log = self.log {
            log.info("\(text)", metadata: ["event": "run.summary"])
            return
        }
        let handle = self.stdoutTaken ? FileHandle.standardError : FileHandle.standardOutput
        // A reader gone (`| head`) is not this run's failure: the text is dropped.
        try? handle.write(contentsOf: Data((text + "\n").utf8))
    }

    func output(_ text: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
    }
}

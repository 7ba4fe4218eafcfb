import Foundation
import IngestCore

extension EventSummary.StatusCounts {
    /// The PhotoShare clients' summary: only the non-zero counts, in this order. "Uploaded" is
    /// what the server's own clients say; the archive says "Stored", a dry run what it would do.
    public func summaryLine(dryRun: Bool) -> String {
        let archive = self.atArchive
        let verb = dryRun ? (archive ? "Would store" : "Would upload") : (archive ? "Stored" : "Uploaded")
        var parts: [String] = []
        if self.uploaded > 0 { parts.append("\(self.uploaded) \(verb)") }
        if self.duplicate > 0 { parts.append("\(self.duplicate) Duplicates") }
        if self.outside > 0 { parts.append("\(self.outside) Outside event dates") }
        if self.undated > 0 { parts.append("\(self.undated) Undated") }
        guard parts.isEmpty else { return parts.joined(separator: ", ") }
        return dryRun ? "Nothing to \(archive ? "store" : "upload")" : "No photos \(archive ? "stored" : "uploaded")"
    }

    /// The summary line, with the failures and the files left pending beside it (never in it).
    public func closingLine(dryRun: Bool, notReached: Int = 0) -> String {
        var line = (dryRun ? "Dry run, nothing written: " : "") + self.summaryLine(dryRun: dryRun)
        if self.failed > 0 { line += "; \(self.failed) failed" }
        let left = [
            self.pending > 0 ? "\(self.pending) pending" : nil, notReached > 0 ? "\(notReached) not reached" : nil,
        ].compactMap { $0 }
        if !left.isEmpty { line += "; " + left.joined(separator: " and ") + ", for the next run" }
        return line
    }
}

import Foundation
import IngestCore
import IngestOutcome
import Testing

@Suite struct RunReportTests {
    @Test("Files given again are counted by why, with examples, before the skipped ones")
    func givenAgainIsCountedByWhy() {
        var report = RunReport(destination: "archive:/a", event: Event(id: "e", name: "e"), dryRun: false)
        for (path, note) in [
            ("/p/1.jpg", Verdict.sentAgainNote + "missing from the server"),
            ("/p/2.jpg", Verdict.sentBeforeNote + " (sha256 ab…); that copy stays"),
            ("/p/3.jpg", "stored without thumbnails: no frame; " + Verdict.sentAgainNote + "gone"),
            ("/p/4.jpg", "stored without thumbnails: no frame"),
        ] {
            report.add(FileOutcome(FileFacts(path: path, stamp: nil), .stored(note: note)))
        }
        let lines = report.details
        #expect(lines.contains("Given again: 3"))
        #expect(lines.contains("  found missing by verify: 2 (/p/1.jpg, /p/3.jpg)"))
        #expect(lines.contains("  sent before with other bytes (the earlier copy stays): 1 (/p/2.jpg)"))
    }
}

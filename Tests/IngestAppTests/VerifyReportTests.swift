import Foundation
import IngestApp
import Testing

@Suite struct VerifyReportTests {
    func report() -> VerifyReport {
        var report = VerifyReport(destination: "server:https://photos.example.com")
        report.events = [
            .init(id: "e1", name: "Party", checked: 10, held: 8, missing: 2), .init(id: "e2", checked: 5, held: 5),
        ]
        report.missing = [
            .init(path: "/card/IMG_1.jpg", event: "e1", eventName: "Party", sha256: "ab", sourceExists: true),
            .init(path: "/card/IMG_2.jpg", event: "e1", eventName: "Party", sha256: "cd", sourceExists: false),
        ]
        return report
    }

    @Test("The text names each missing file and its event, says which cannot be sent again, and ends with the verdict")
    func textNamesEachMissingFile() {
        let lines = self.report().lines
        #expect(lines.contains("Party: 8 of 10 held, 2 missing"))
        #expect(lines.contains("e2: 5 of 5 held"))
        #expect(lines.contains { $0.contains("/card/IMG_1.jpg  Party  sha256 ab") && !$0.contains("gone") })
        #expect(lines.contains { $0.contains("/card/IMG_2.jpg") && $0.contains("the file is gone") })
        #expect(lines.last == "Not whole: 2 of 15 files missing; 1 of them no longer where they were read")
        var whole = VerifyReport(destination: "archive:/a")
        whole.events = [.init(id: "default", name: "default", checked: 1, held: 1)]
        #expect(whole.lines.last == "Verified: all 1 file given to 1 event are held")
    }

    @Test("The JSON has the totals beside the lists, and reads back as the report it was")
    func jsonCarriesTotals() throws {
        let report = self.report()
        let text = report.jsonText
        let totals = try JSONDecoder().decode(Totals.self, from: Data(text.utf8))
        #expect(totals.checked == 15 && totals.held == 13 && !totals.whole)
        #expect(try JSONDecoder().decode(VerifyReport.self, from: Data(text.utf8)) == report)
        #expect(text.contains("\"destination\":\"server:https://photos.example.com\""))
    }

    struct Totals: Decodable {
        var checked: Int
        var held: Int
        var whole: Bool
    }
}

import Foundation
import IngestCore
import IngestDating
import Testing

@Suite struct CaptureTimeResolverICloudTests {
    let resolver = CaptureTimeResolver(
        assumedZone: TimeZone(identifier: "UTC")!, now: Date(timeIntervalSince1970: 1_800_000_000))

    @Test("Only a file with no time of its own takes the CSV's minute; a time in the future is refused")
    func precedence() {
        let undated = self.resolver.resolve(nil, fileModified: Date(timeIntervalSince1970: 1_700_000_000))
        let dated = self.resolver.icloud(1_654_344_660, over: undated)
        #expect(dated.source == .icloudCSV && dated.instant == Date(timeIntervalSince1970: 1_654_344_660))
        var fields = ExifTimeFields()
        fields.dateTimeOriginal = "2019:07:04 18:15:12"
        let own = self.resolver.resolve(fields, fileModified: Date())
        #expect(self.resolver.icloud(1_654_344_660, over: own) == own)
        let future = self.resolver.icloud(1_900_000_000, over: undated)
        #expect(future.source == .fileMTime && future.notes.contains { $0.contains("refused") })
    }
}

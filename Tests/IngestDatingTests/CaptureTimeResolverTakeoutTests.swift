import Foundation
import IngestCore
import IngestDating
import Testing

@Suite struct CaptureTimeResolverTakeoutTests {
    let resolver = CaptureTimeResolver(
        assumedZone: TimeZone(identifier: "UTC")!, now: Date(timeIntervalSince1970: 1_800_000_000))
    /// 2019-07-04 16:15:12 UTC.
    let instant: Int64 = 1_562_256_912

    func exif(_ original: String, offset: String? = nil) -> ExifTimeFields {
        var fields = ExifTimeFields()
        fields.dateTimeOriginal = original
        fields.offsetTimeOriginal = offset
        return fields
    }

    @Test("With no time of its own, the file takes the JSON's instant")
    func noTime() {
        let own = self.resolver.resolve(nil, fileModified: Date(timeIntervalSince1970: 1_700_000_000))
        let dated = self.resolver.takeout(TakeoutFields(takenSeconds: self.instant), over: own)
        #expect(dated.source == .takeoutJSON)
        #expect(dated.instant == Date(timeIntervalSince1970: TimeInterval(self.instant)))
        #expect(dated.localTime == nil && dated.offsetSeconds == nil)
    }

    @Test("A camera clock with no zone takes its offset from the JSON's instant, on the quarter-hour grid")
    func offsetFromJSON() {
        // The clock said 18:15:12; Google says 16:15:12 UTC: the clock was on +02:00.
        let own = self.resolver.resolve(self.exif("2019:07:04 18:15:12"), fileModified: Date())
        #expect(own.source == .exifAssumedZone)
        let dated = self.resolver.takeout(TakeoutFields(takenSeconds: self.instant), over: own)
        #expect(dated.source == .takeoutJSON)
        #expect(dated.offsetSeconds == 7_200)
        #expect(dated.instant == Date(timeIntervalSince1970: TimeInterval(self.instant)))
        #expect(dated.localTime == own.localTime)
        // 17 minutes off any zone's offset: not an offset; the assumed zone stays, and says why.
        let skewed = self.resolver.takeout(TakeoutFields(takenSeconds: self.instant + 17 * 60), over: own)
        #expect(skewed.source == .exifAssumedZone && skewed.instant == own.instant)
        #expect(skewed.notes.contains { $0.contains("not a zone's offset") })
    }

    @Test("A time that carries its zone wins; a JSON that disagrees is noted; a JSON with no time changes nothing")
    func ownZoneWins() {
        let own = self.resolver.resolve(self.exif("2019:07:04 18:15:12", offset: "+02:00"), fileModified: Date())
        let same = self.resolver.takeout(TakeoutFields(takenSeconds: self.instant), over: own)
        #expect(same == own)
        let other = self.resolver.takeout(TakeoutFields(takenSeconds: self.instant + 3_600), over: own)
        #expect(other.source == .exifOffset && other.instant == own.instant)
        #expect(other.notes.contains { $0.contains("differs from the file's own time (exif-offset) by -01:00:00") })
        #expect(self.resolver.takeout(TakeoutFields(), over: own) == own)
        let future = self.resolver.takeout(TakeoutFields(takenSeconds: 1_900_000_000), over: own)
        #expect(future.instant == own.instant && future.notes.contains { $0.contains("refused") })
    }
}

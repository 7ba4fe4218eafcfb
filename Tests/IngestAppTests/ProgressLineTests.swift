import IngestPipeline
import Testing

@testable import IngestApp

@Suite struct ProgressLineTests {
    @Test func longNamesAreCutInTheMiddle() {
        #expect(ProgressLine.truncateMiddle("IMG_20240927_140922_HDR.jpg", to: 11) == "IMG_2…R.jpg")
        #expect(ProgressLine.truncateMiddle("short.jpg", to: 20) == "short.jpg")
    }

    func progress(
        done: Int, unchanged: Int = 0, discovered: Int, discoveryDone: Bool, bytes: Int64 = 0,
        uploads: UploadCounts? = nil
    ) -> RunProgress {
        var progress = RunProgress()
        progress.done = done
        progress.unchanged = unchanged
        progress.discovered = discovered
        progress.discoveryDone = discoveryDone
        progress.bytesRead = bytes
        progress.uploads = uploads
        return progress
    }

    @Test func showsCountsRatesAndETA() {
        let line = ProgressLine.render(
            self.progress(done: 50, discovered: 200, discoveryDone: true, bytes: 40_000_000), elapsed: 10,
            current: "/photos/IMG_0051.jpg", width: 120)
        #expect(line.hasPrefix("50/200 files  5.0 photos/s  4.0 MB/s  ETA 0:30  IMG_0051.jpg"))
        let early = ProgressLine.render(
            self.progress(done: 1, discovered: 256, discoveryDone: false), elapsed: 1, current: "", width: 80)
        #expect(early.hasPrefix("1/256+ files"))
        #expect(early.contains("ETA --:--"))
    }

    @Test("Against a server: the uploads sending and queued; photos/s counts only the files that needed work")
    func showsUploadsSendingAndQueued() {
        let line = ProgressLine.render(
            self.progress(
                done: 60, unchanged: 40, discovered: 100, discoveryDone: true,
                uploads: UploadCounts(begun: 9, connections: 2)),
            elapsed: 10, current: "/photos/IMG_0061.jpg", width: 120)
        #expect(
            line.hasPrefix("60/100 files  2.0 photos/s  0.0 MB/s  2 uploading, 7 queued  ETA 0:07  IMG_0061.jpg"))
    }
}

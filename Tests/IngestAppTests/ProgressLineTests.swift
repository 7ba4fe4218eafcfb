import Foundation
import IngestOutcome
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

    @Test("A notice printed while the line is drawn erases it first, and the next update draws it again at once")
    func noticesTakeTheLinesPlace() throws {
        // A pseudo-terminal: the line is drawn only on a terminal. Linux's /dev/ptmx, unlocked
        // (TIOCSPTLCK) and numbered (TIOCGPTN) by ioctl: Glibc's module has no posix_openpt.
        let main = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(main >= 0)
        defer { close(main) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(main, 0x4004_5431, &unlock) == 0 && ioctl(main, 0x8004_5430, &number) == 0)
        let terminal = try #require(FileHandle(forWritingAtPath: "/dev/pts/\(number)"))
        defer { try? terminal.close() }
        var settings = termios()
        tcgetattr(terminal.fileDescriptor, &settings)
        cfmakeraw(&settings)
        tcsetattr(terminal.fileDescriptor, TCSANOW, &settings)

        let line = ProgressLine(quiet: false, output: terminal)
        line.started("/photos/IMG_0001.jpg")
        line.update(self.progress(done: 1, discovered: 10, discoveryDone: true))
        line.printing { terminal.write(Data("Watching 3 folders\n".utf8)) }
        line.update(self.progress(done: 2, discovered: 10, discoveryDone: true))
        // The terminal hands the bytes over as they pass its line discipline: read until a
        // moment passes with nothing more.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var reader = pollfd(fd: main, events: Int16(POLLIN), revents: 0)
        while poll(&reader, 1, 300) > 0 {
            let count = read(main, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer.prefix(count)
        }
        let shown = String(decoding: received, as: UTF8.self)
        let erase = "\r\u{1B}[2K"
        let parts = shown.components(separatedBy: erase)
        // Drawn, erased for the notice, drawn again (not held back by the tenth of a second).
        try #require(parts.count == 4, "\(shown.debugDescription)")
        #expect(
            parts[1].hasPrefix("1/10 files") && parts[2] == "Watching 3 folders\n" && parts[3].hasPrefix("2/10 files"))

        // Not a terminal: nothing drawn, the notice written all the same.
        var written = false
        ProgressLine(quiet: false, output: FileHandle.nullDevice).printing { written = true }
        #expect(written)
    }
}

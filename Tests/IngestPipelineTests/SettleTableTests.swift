import IngestCore
import Testing

@testable import IngestPipeline

/// When a watched file is complete: at once when closed or moved in; when seen written, at its
/// close; when found open, after the settle time without a change; one of a pair waits for its
/// partner still being written.
@Suite struct SettleTableTests {
    let start = ContinuousClock.now
    func at(_ milliseconds: Int) -> ContinuousClock.Instant { self.start + .milliseconds(milliseconds) }
    static let stamp = FileStamp(size: 10, modifiedNanoseconds: 1, inode: 7)

    @Test("A file closed after writing, or moved in, is complete at once")
    func closedAtOnce() {
        var table = SettleTable(settle: .seconds(2))
        table.changed("/in/a.jpg", at: self.at(0))
        table.closed("/in/a.jpg", at: self.at(300))
        let due = table.due(at: self.at(300)) { _ in Self.stamp }
        #expect(due.map(\.path) == ["/in/a.jpg"])
        #expect(due.first?.since == self.at(300))
        #expect(table.count == 0)
        #expect(table.due(at: self.at(5_000)) { _ in Self.stamp }.isEmpty, "handed on twice")
    }

    @Test("A file left open is complete once its size and time stay unchanged for the settle time")
    func openUntilQuiet() {
        var table = SettleTable(settle: .seconds(2))
        var stamp = Self.stamp
        table.changed("/in/a.jpg", at: self.at(0))
        #expect(table.due(at: self.at(100)) { _ in stamp }.isEmpty)
        #expect(table.due(at: self.at(1_500)) { _ in stamp }.isEmpty)
        // It grows without an inotify event reaching us: the sweep sees it and waits again.
        stamp.size = 20
        #expect(table.due(at: self.at(2_200)) { _ in stamp }.isEmpty)
        #expect(table.due(at: self.at(4_100)) { _ in stamp }.isEmpty)
        let due = table.due(at: self.at(4_200)) { _ in stamp }
        #expect(due.map(\.path) == ["/in/a.jpg"])
        #expect(due.first?.since == self.at(4_200))
    }

    @Test("A file seen being written waits for its close through a stall longer than the settle time")
    func writerSeenWaitsForClose() {
        var table = SettleTable(settle: .seconds(2))
        #expect(table.abandoned == .seconds(60))
        table.written("/in/a.jpg", at: self.at(0))
        // The upload stalls for 10 s, half the photo written: not handed on.
        #expect(table.due(at: self.at(10_000)) { _ in Self.stamp }.isEmpty)
        table.written("/in/a.jpg", at: self.at(10_500))
        table.closed("/in/a.jpg", at: self.at(11_000))
        #expect(table.due(at: self.at(11_000)) { _ in Self.stamp }.map(\.path) == ["/in/a.jpg"])
        // A writer that keeps its file open and quiet: handed on after 30 settle times.
        table.written("/in/b.jpg", at: self.at(20_000))
        #expect(table.due(at: self.at(20_000)) { _ in Self.stamp }.isEmpty)
        #expect(table.due(at: self.at(79_000)) { _ in Self.stamp }.isEmpty)
        let due = table.due(at: self.at(80_100)) { _ in Self.stamp }
        #expect(due.map(\.path) == ["/in/b.jpg"] && due.first?.since == self.at(80_000))
    }

    @Test("Written again after its close (a writer that reopens it), it waits again")
    func reopened() {
        var table = SettleTable(settle: .seconds(2))
        table.closed("/in/a.jpg", at: self.at(0))
        table.changed("/in/a.jpg", at: self.at(10))
        #expect(table.due(at: self.at(20)) { _ in Self.stamp }.isEmpty)
        table.closed("/in/a.jpg", at: self.at(900))
        #expect(table.due(at: self.at(900)) { _ in Self.stamp }.map(\.path) == ["/in/a.jpg"])
    }

    @Test("One of a pair waits for its partner still being written, up to the settle time")
    func pairWaits() {
        var table = SettleTable(settle: .seconds(2))
        table.closed("/in/IMG_1.HEIC", at: self.at(0))
        table.changed("/in/IMG_1.MOV", at: self.at(100))
        table.closed("/in/IMG_2.HEIC", at: self.at(100))
        // IMG_2 has no partner on its way: it goes; IMG_1 waits for its clip.
        #expect(table.due(at: self.at(200)) { _ in Self.stamp }.map(\.path) == ["/in/IMG_2.HEIC"])
        table.closed("/in/IMG_1.MOV", at: self.at(1_000))
        #expect(table.due(at: self.at(1_000)) { _ in Self.stamp }.map(\.path) == ["/in/IMG_1.HEIC", "/in/IMG_1.MOV"])

        // A partner that never closes: the still goes alone after the settle time.
        table.closed("/in/IMG_3.HEIC", at: self.at(3_000))
        table.changed("/in/IMG_3.MOV", at: self.at(3_000))
        var growing = Self.stamp
        for step in 1...9 {
            growing.size += 1
            let due = table.due(at: self.at(3_000 + step * 250)) { _ in growing }
            #expect(due.map(\.path) == (step >= 8 ? ["/in/IMG_3.HEIC"] : []), "at step \(step)")
            if !due.isEmpty { break }
        }
    }

    @Test("A file removed, or gone before the sweep, is never handed on")
    func removed() {
        var table = SettleTable(settle: .seconds(1))
        table.closed("/in/a.jpg", at: self.at(0))
        table.removed("/in/a.jpg")
        table.changed("/in/b.jpg", at: self.at(0))
        #expect(table.due(at: self.at(5_000)) { _ in nil }.isEmpty)
        #expect(table.count == 0)
    }
}

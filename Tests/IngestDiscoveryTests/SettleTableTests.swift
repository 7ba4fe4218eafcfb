import IngestContainers
import IngestCore
import Testing

@testable import IngestDiscovery

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

extension SettleTableTests {
    @Test("A writer quiet past the abandoned time: handed on only when whole; held, said once, while cut")
    func abandonedOnlyWhenWhole() {
        var table = SettleTable(settle: .seconds(1))
        var stamp = Self.stamp
        var said: [String] = []
        let cut = Completeness.cut("the JPEG has no end-of-image marker")
        func due(_ milliseconds: Int, _ verdict: Completeness?) -> [String] {
            table.due(at: self.at(milliseconds), stamp: { _ in stamp }, judge: { _ in verdict }) { path, reason in
                said.append("\(path): \(reason)")
            }.map(\.path)
        }
        table.written("/in/half.jpg", at: self.at(0))
        #expect(due(0, cut).isEmpty)
        // Quiet for 70 s, half written: the abandoned time (60 s) passes, but it is cut short.
        #expect(due(61_000, cut).isEmpty)
        #expect(due(70_000, cut).isEmpty)
        #expect(said == ["/in/half.jpg: the JPEG has no end-of-image marker"], "said once, not each sweep")
        #expect(table.held.map(\.path) == ["/in/half.jpg"])
        #expect(table.heldCount == 1)
        // Its writer comes back with the rest, and closes it: handed on then, once.
        stamp.size = 20
        table.written("/in/half.jpg", at: self.at(70_100))
        #expect(due(70_100, cut).isEmpty)
        #expect(table.heldCount == 0, "a change takes the hold away")
        table.closed("/in/half.jpg", at: self.at(70_500))
        #expect(due(70_500, cut) == ["/in/half.jpg"])

        // A writer that hangs with its file whole: handed on after the abandoned time.
        table.written("/in/whole.jpg", at: self.at(100_000))
        #expect(due(100_000, .whole).isEmpty)
        #expect(due(160_100, .whole) == ["/in/whole.jpg"])
    }

    @Test("A file found by reading its folder: its quiet time counts from its own last change")
    func foundCountsFromItsTime() {
        var table = SettleTable(settle: .seconds(2))
        // Changed 5 s before it was found: quiet for the settle time already, whole: due at once.
        table.found("/in/a.jpg", stamp: Self.stamp, changed: self.at(-5_000))
        #expect(
            table.due(at: self.at(0), stamp: { _ in Self.stamp }, judge: { _ in .whole }).map(\.path) == ["/in/a.jpg"])
        // Changed 1 s before: waits for the rest of its settle time; cut short, held.
        table.found("/in/b.jpg", stamp: Self.stamp, changed: self.at(-1_000))
        #expect(table.due(at: self.at(0), stamp: { _ in Self.stamp }, judge: { _ in .whole }).isEmpty)
        #expect(table.due(at: self.at(1_100), stamp: { _ in Self.stamp }, judge: { _ in .cut("cut") }).isEmpty)
        #expect(table.heldCount == 1)
        // Found again (a rescan) while its events hold it: left as they made it.
        table.written("/in/c.jpg", at: self.at(0))
        table.found("/in/c.jpg", stamp: Self.stamp, changed: self.at(-90_000))
        #expect(table.due(at: self.at(2_000), stamp: { _ in Self.stamp }, judge: { _ in .whole }).isEmpty)
    }
}

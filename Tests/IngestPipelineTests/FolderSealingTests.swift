import Foundation
import IngestCore
import IngestDiscovery
import IngestHashing
import Testing

@testable import IngestPipeline

@Suite struct FolderSealingTests {
    func seal(_ folder: String, files: Int) -> FolderSeal {
        FolderSeal(folder: folder, digest: "digest of \(folder)", files: files)
    }

    @Test("A folder is sealed once every one of its files was found done, its subfolders' files between them")
    func sealedWhenEveryFileIsDone() {
        var sealing = FolderSealing(context: "c")
        sealing.open([self.seal("/p", files: 3), self.seal("/p/inner", files: 2)])
        sealing.found("/p/a.jpg", done: true)
        sealing.found("/p/inner/x.jpg", done: true)
        sealing.found("/p/inner/y.jpg", done: true)
        sealing.found("/p/b.jpg", done: true)
        #expect(sealing.takeSealed(atEnd: true).map(\.folder) == ["/p/inner"])
        // A file of no folder followed (given alone, or in a zip file) changes nothing.
        sealing.found("/elsewhere/z.jpg", done: false)
        sealing.found("/p/c.jpg", done: true)
        #expect(sealing.takeSealed(atEnd: true).map(\.folder) == ["/p"])
        #expect(sealing.takeSealed(atEnd: true).isEmpty)
    }

    @Test("One file not done spoils its folder's seal, and no other's")
    func oneFileSpoils() {
        var sealing = FolderSealing(context: "c")
        sealing.open([self.seal("/p", files: 2), self.seal("/q", files: 1)])
        sealing.found("/p/a.jpg", done: true)
        sealing.found("/q/a.jpg", done: true)
        sealing.found("/p/b.jpg", done: false)
        #expect(sealing.takeSealed(atEnd: true).map(\.folder) == ["/q"])
        // The spoiled folder is followed no more: a later file of it seals nothing.
        sealing.found("/p/c.jpg", done: true)
        sealing.found("/p/d.jpg", done: true)
        #expect(sealing.takeSealed(atEnd: true).isEmpty)
    }

    @Test("Seals wait to be recorded until a write's worth are sealed with no file in flight, or the walk ends")
    func sealsAreRecordedInWrites() {
        var sealing = FolderSealing(context: "c")
        let count = FolderSealing.sealsPerWrite + 1
        sealing.open((0..<count).map { self.seal("/f\($0)", files: 1) })
        for index in 0..<(count - 1) {
            sealing.found("/f\(index)/a.jpg", done: true)
            if index < count - 2 { #expect(sealing.takeSealed(atEnd: false, idle: true).isEmpty) }
        }
        #expect(sealing.takeSealed(atEnd: false, idle: false).isEmpty, "recorded with files in flight")
        #expect(sealing.takeSealed(atEnd: false, idle: true).count == count - 1)
        sealing.found("/f\(count - 1)/a.jpg", done: true)
        #expect(sealing.takeSealed(atEnd: false, idle: true).isEmpty)
        #expect(sealing.takeSealed(atEnd: true).count == 1)
    }

    @Test("A row written this run for a file of a folder keeps the folder from being sealed, found done or not")
    func aWrittenRowUnseals() {
        var sealing = FolderSealing(context: "c")
        sealing.open([self.seal("/p", files: 1), self.seal("/q", files: 2), self.seal("/r", files: 1)])
        sealing.found("/p/a.jpg", done: true)
        sealing.wrote("/p/a.jpg")
        sealing.found("/q/a.jpg", done: true)
        sealing.wrote("/q/b.jpg")
        sealing.found("/q/b.jpg", done: true)
        sealing.found("/r/a.jpg", done: true)
        #expect(sealing.takeSealed(atEnd: true).map(\.folder) == ["/r"])
    }

    @Test("Folders whose names differ only in Unicode normalization are followed apart")
    func normalizationFormsAreTwoFolders() {
        var sealing = FolderSealing(context: "c")
        let composed = "/p/caf\u{E9}"
        let decomposed = "/p/cafe\u{301}"
        sealing.open([self.seal(composed, files: 1), self.seal(decomposed, files: 2)])
        sealing.found(composed + "/a.jpg", done: true)
        sealing.found(decomposed + "/a.jpg", done: true)
        #expect(sealing.takeSealed(atEnd: true).map { Array($0.folder.utf8) } == [Array(composed.utf8)])
    }

    @Test("A seal holds for one set of the settings that decide what is done")
    func contextFollowsTheSettings() throws {
        let party = Event(
            id: "party", name: "Party",
            window: EventWindow(start: Date(timeIntervalSince1970: 1_000), end: Date(timeIntervalSince1970: 2_000)))
        func context(
            destination: String = "archive:/a", events: [Event] = [party], zone: String = "UTC",
            positions: Bool = false, clocks: Bool = false, undated: UndatedPolicy = .open, shard: Shard? = nil
        ) -> String {
            FolderSealing.context(
                destination: destination, events: events, zone: zone, readsPositions: positions,
                correctsClocks: clocks, undated: undated, shard: shard)
        }
        var later = party
        later.window.end = Date(timeIntervalSince1970: 3_000)
        let variants = [
            context(), context(destination: "https://photos.example/"), context(events: [later]),
            context(events: [party, later]), context(zone: "Europe/Paris"), context(positions: true),
            context(clocks: true), context(undated: .mtime), context(shard: Shard(index: 0, count: 2)),
        ]
        #expect(Set(variants).count == variants.count)
        #expect(context() == context())
    }
}

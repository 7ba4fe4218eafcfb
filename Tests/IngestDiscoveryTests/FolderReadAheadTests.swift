import AsyncAlgorithms
import Foundation
import IngestCore
import IngestTesting
import Testing

@testable import IngestDiscovery

/// Folders read ahead of the walk (``FolderReadAhead``): what the walk finds must not depend on it.
@Suite struct FolderReadAheadTests {
    let folder = TemporaryFolder("read-ahead")

    @Test("Reading folders ahead finds what reading each in turn finds, in the same order")
    func readAheadChangesNothing() async throws {
        for year in ["2022", "2023", "2024"] {
            for month in ["01", "02", "11"] {
                for day in 0..<3 { try self.folder.write("\(year)/\(month)/IMG_\(day).jpg", "\(year)\(month)\(day)") }
            }
            try self.folder.write("\(year)/top.jpg", year)
        }
        try self.folder.write("2023/.photoingestignore", "11\n")
        try self.folder.write("2024/02/@eaDir/thumb.jpg", "t")
        try self.folder.write("2024/02/notes.xmp", "<x/>")
        try FileManager.default.createSymbolicLink(
            atPath: self.folder.appending("2022/01/loop").path, withDestinationPath: "..")
        var serial = Discovery(roots: [self.folder.path], includeHidden: false)
        serial.sealsFolders = true
        var ahead = serial
        ahead.listingThreads = 3
        let one = await serial.batches()
        let three = await ahead.batches()
        #expect(one.flatMap(\.items) == three.flatMap(\.items))
        #expect(one.flatMap(\.seals) == three.flatMap(\.seals))
        #expect(one.flatMap(\.items).count > 20)

        // With every sealed folder settled, each walk sends the problems and the files of the one
        // folder with no seal (its lone sidecar), and counts the same files.
        let sealed = Dictionary(uniqueKeysWithValues: one.flatMap(\.seals).map { ($0.folder, $0.digest) })
        serial.sealedDigest = { sealed[$0] }
        ahead.sealedDigest = { sealed[$0] }
        let settledOne = await serial.batches()
        let settledThree = await ahead.batches()
        #expect(settledOne.flatMap(\.settled) == settledThree.flatMap(\.settled))
        #expect(settledOne.flatMap(\.items) == settledThree.flatMap(\.items))
        #expect(
            settledOne.flatMap(\.items).compactMap(\.file?.path)
                == (0..<3).map { self.folder.path + "/2024/02/IMG_\($0).jpg" })
        #expect(settledThree.reduce(0) { $0 + $1.files } == one.reduce(0) { $0 + $1.files })
    }

    @Test("A walk stopped early waits for the folders it was reading ahead, and ends")
    func stoppedWalkEnds() async throws {
        for index in 0..<20 { try self.folder.write("f\(index)/a.jpg", "\(index)") }
        var discovery = Discovery(roots: [self.folder.path], includeHidden: false)
        discovery.listingThreads = 4
        let asked = Counter()
        let channel = AsyncChannel<DiscoveryBatch>()
        async let tally = discovery.walk(into: channel, shouldStop: { asked.next() > 5 })
        var files: [String] = []
        for await batch in channel { files += batch.items.compactMap(\.file?.path) }
        #expect(await tally.filelessRoots.isEmpty)
        // Asked before each entry: the root, f0, its photo, f1, its photo; then it stops.
        #expect(files == ["f0", "f1"].map { self.folder.path + "/\($0)/a.jpg" })
    }
}

/// Counts calls, from any thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        self.lock.lock()
        defer { self.lock.unlock() }
        self.count += 1
        return self.count
    }
}

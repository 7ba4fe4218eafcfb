import AsyncAlgorithms
import Foundation
import IngestCore
import IngestHashing
import IngestTesting
import Testing

@testable import IngestDiscovery

@Suite struct FolderSealTests {
    let folder = TemporaryFolder("folder-seal")

    /// The seals a walk that seals folders gives, by folder.
    func seals(shard: Shard? = nil) async -> [String: FolderSeal] {
        var discovery = Discovery(roots: [self.folder.path], includeHidden: false, shard: shard)
        discovery.sealsFolders = true
        let seals = await discovery.batches().flatMap(\.seals)
        return Dictionary(uniqueKeysWithValues: seals.map { ($0.folder, $0) })
    }

    /// Sets the file's modification time, as a camera's card or a copy keeping times would.
    func setModified(_ relative: String, to seconds: Int) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: TimeInterval(seconds))],
            ofItemAtPath: self.folder.appending(relative).path)
    }

    @Test("A folder's seal holds while nothing in it changes, and changes with any file added, removed or edited")
    func sealFollowsTheFiles() async throws {
        try self.folder.write("2024/a.jpg", "a")
        try self.folder.write("2024/b.jpg", "b")
        try self.folder.write("2024/inner/c.jpg", "c")
        let path = self.folder.path + "/2024"
        let first = try #require(await self.seals()[path])
        #expect(first.files == 2)
        #expect(first.firstPaths == [path + "/a.jpg", path + "/b.jpg"])
        // A folder inside is no part of its parent's seal: it has its own.
        #expect(await self.seals()[path + "/inner"]?.files == 1)
        #expect(await self.seals()[path] == first, "nothing changed, and the seal did")

        try self.folder.write("2024/inner/d.jpg", "d")
        #expect(await self.seals()[path] == first, "a file in a folder inside changed the parent's seal")

        try self.folder.write("2024/e.jpg", "e")
        let added = try #require(await self.seals()[path])
        #expect(added.digest != first.digest && added.files == 3)

        try FileManager.default.removeItem(atPath: path + "/e.jpg")
        let removed = try #require(await self.seals()[path])
        #expect(removed == first, "the folder is as it was, and its seal is not")

        try self.setModified("2024/a.jpg", to: 1_600_000_000)
        let edited = try #require(await self.seals()[path])
        #expect(edited.digest != removed.digest)

        // An edit in place that puts the time back (exiftool -P) still moves the ctime.
        let before = try #require(await self.seals()[path])
        try self.folder.write("2024/a.jpg", "A")
        try self.setModified("2024/a.jpg", to: 1_600_000_000)
        #expect(try #require(await self.seals()[path]).digest != before.digest)
    }

    @Test("A sidecar that changes changes its folder's seal")
    func sidecarIsInTheSeal() async throws {
        try self.folder.write("trip/a.jpg", "a")
        try self.folder.write("trip/a.jpg.xmp", "<x/>")
        let path = self.folder.path + "/trip"
        let first = try #require(await self.seals()[path])
        #expect(first.files == 1 && first.sidecars == 1)
        try self.setModified("trip/a.jpg.xmp", to: 1_500_000_000)
        #expect(try #require(await self.seals()[path]).digest != first.digest)
    }

    @Test(
        "A folder with anything that makes an outcome of its own has no seal",
        arguments: ["album.zip", "lone.xmp", "backup.tar", "broken-link.jpg"])
    func noSealWhereAnEntryIsNoPlainFile(_ odd: String) async throws {
        try self.folder.write("box/a.jpg", "a")
        if odd == "broken-link.jpg" {
            try FileManager.default.createSymbolicLink(
                atPath: self.folder.appending("box/" + odd).path, withDestinationPath: "missing.jpg")
        } else {
            try self.folder.write("box/" + odd, "x")
        }
        #expect(await self.seals()[self.folder.path + "/box"] == nil)
    }

    @Test("A seal counts only the files of the run's shard, and which files those are is part of it")
    func sealOfAShard() async throws {
        for index in 0..<12 { try self.folder.write("many/IMG_\(index).jpg", "\(index)") }
        let path = self.folder.path + "/many"
        var counted = 0
        var digests: Set<String> = []
        for index in 0..<3 {
            let seal = await self.seals(shard: Shard(index: index, count: 3))[path]
            counted += seal?.files ?? 0
            if let seal { digests.insert(seal.digest) }
            #expect(await self.seals(shard: Shard(index: index, count: 3))[path] == seal)
        }
        #expect(counted == 12)
        #expect(digests.count == 3, "the shards' seals do not say which files each holds")
        // Given from the folder itself, the paths a shard splits by change, and so does the seal.
        var inside = Discovery(roots: [path], includeHidden: false, shard: Shard(index: 0, count: 3))
        inside.sealsFolders = true
        let fromInside = await inside.batches().flatMap(\.seals).first { $0.folder == path }
        let fromAbove = await self.seals(shard: Shard(index: 0, count: 3))[path]
        #expect(fromInside != nil && fromAbove != nil)
        #expect(fromInside?.digest != fromAbove?.digest)
    }

    @Test("A folder that holds a file given as a root has no seal: that file is walked twice")
    func noSealBesideARootFile() async throws {
        try self.folder.write("trip/a.jpg", "a")
        try self.folder.write("trip/b.jpg", "b")
        let trip = self.folder.path + "/trip"
        var discovery = Discovery(roots: [trip + "/a.jpg", trip], includeHidden: false)
        discovery.sealsFolders = true
        #expect(await discovery.batches().flatMap(\.seals).isEmpty)
        discovery.roots = [trip]
        #expect(await discovery.batches().flatMap(\.seals).map(\.folder) == [trip])
    }

    @Test("A settled folder's files are counted, not sent; its folders are still walked")
    func settledFolderSendsNoFiles() async throws {
        try self.folder.write("2024/a.jpg", "a")
        try self.folder.write("2024/b.jpg", "b")
        try self.folder.write("2024/b.jpg.xmp", "<x/>")
        try self.folder.write("2024/new/c.jpg", "c")
        let sealed = try #require(await self.seals()[self.folder.path + "/2024"])
        var discovery = Discovery(roots: [self.folder.path], includeHidden: false)
        discovery.sealsFolders = true
        discovery.sealedDigest = { [sealed] folder in folder == sealed.folder ? sealed.digest : nil }
        let channel = AsyncChannel<DiscoveryBatch>()
        async let walked = discovery.walk(into: channel, shouldStop: { false })
        var batches: [DiscoveryBatch] = []
        for await batch in channel { batches.append(batch) }
        let tally = await walked
        #expect(batches.flatMap(\.items).compactMap(\.file?.path) == [self.folder.path + "/2024/new/c.jpg"])
        #expect(batches.flatMap(\.settled) == [sealed])
        #expect(batches.reduce(0) { $0 + $1.files } == 3)
        // The run still says how many files had a sidecar.
        #expect(tally.sidecars == 1)
        #expect(tally.filelessRoots.isEmpty)

        // One file changed: the folder is no longer settled, and every file of it is sent again.
        try self.folder.write("2024/a.jpg", "A!")
        let again = await discovery.batches()
        #expect(again.flatMap(\.settled).isEmpty)
        #expect(again.flatMap(\.items).compactMap(\.file?.path).count == 3)
    }
}

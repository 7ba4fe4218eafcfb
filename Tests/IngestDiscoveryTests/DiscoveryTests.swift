import AsyncAlgorithms
import Foundation
import IngestCore
import IngestHashing
import IngestTesting
import Testing

@testable import IngestDiscovery

@Suite struct DiscoveryTests {
    let folder = TemporaryFolder("discovery")

    func walk(_ discovery: Discovery, stopAfter: Int = .max) async -> ([DiscoveryItem], Discovery.Tally) {
        let channel = AsyncChannel<DiscoveryBatch>()
        async let tally = discovery.walk(into: channel, shouldStop: { false })
        var items: [DiscoveryItem] = []
        var last = false
        for await batch in channel {
            #expect(!last, "a batch came after the last one")
            items += batch.items
            last = batch.isLast
        }
        #expect(last)
        return (items, await tally)
    }

    func files(_ items: [DiscoveryItem]) -> [String] {
        items.compactMap { if case .file(let file) = $0 { file.path } else { nil } }
    }

    @Test("Files of one name (a possible pair) are never cut apart by a batch's end")
    func oneNameOneBatch() async throws {
        for name in ["a.jpg", "b.jpg", "c.HEIC", "c.MOV", "d.jpg"] { try self.folder.write(name) }
        let channel = AsyncChannel<DiscoveryBatch>()
        let discovery = Discovery(roots: [self.folder.path], includeHidden: false, batchSize: 3)
        async let tally = discovery.walk(into: channel, shouldStop: { false })
        var batches: [[String]] = []
        for await batch in channel {
            batches.append(batch.items.compactMap { $0.file.map { ($0.path as NSString).lastPathComponent } })
        }
        _ = await tally
        // A full batch holds back the files of its last name: the next file may share it.
        #expect(batches == [["a.jpg", "b.jpg"], ["c.HEIC", "c.MOV"], ["d.jpg"]])
    }

    @Test("A sharded walk keeps the files of one name (a possible pair) in one shard")
    func shardKeepsPairsTogether() async throws {
        let names = (0..<40).flatMap { ["IMG_\($0).HEIC", "IMG_\($0).MOV"] }
        for name in names { try self.folder.write(name) }
        var shardOf: [String: Int] = [:]
        for index in 0..<4 {
            let discovery = Discovery(
                roots: [self.folder.path], includeHidden: false, shard: Shard(index: index, count: 4))
            for file in self.files(await self.walk(discovery).0) {
                shardOf[(file as NSString).lastPathComponent] = index
            }
        }
        #expect(shardOf.count == names.count)
        #expect((0..<40).allSatisfy { shardOf["IMG_\($0).HEIC"] == shardOf["IMG_\($0).MOV"] })
        #expect(Set(shardOf.values).count > 1, "every file fell in one shard")
    }

    @Test("A shard plan's sizes: every file of every shard, a pair's bytes under its one name, the walk's rules kept")
    func unitSizes() throws {
        try self.folder.write("2025/IMG_1.HEIC", String(repeating: "x", count: 300))
        try self.folder.write("2025/IMG_1.MOV", String(repeating: "x", count: 700))
        try self.folder.write("2025/DSC_2.JPG", String(repeating: "x", count: 50))
        try self.folder.write("2025/@eaDir/IMG_1.HEIC/SYNOPHOTO_THUMB_XL.jpg", String(repeating: "x", count: 20))
        try self.folder.write("README", String(repeating: "x", count: 5))
        // Sharded or not, the whole import is weighed.
        let discovery = Discovery(
            roots: [self.folder.path], includeHidden: false, rules: ExclusionRules(),
            shard: Shard(index: 1, count: 4))
        #expect(discovery.unitSizes() == ["2025/img_1": 1_000, "2025/dsc_2": 50, "README": 5])
        #expect(discovery.unitSizes(shouldStop: { true }).isEmpty)
    }

    @Test func walksRecursivelyInSortedOrderWithStatResults() async throws {
        try self.folder.write("b/2.jpg", "22")
        try self.folder.write("a.jpg", "1")
        try self.folder.write("b/1.jpg", "333")
        let (items, _) = await self.walk(Discovery(roots: [self.folder.path], includeHidden: false, batchSize: 2))
        let root = self.folder.path
        #expect(self.files(items) == ["\(root)/a.jpg", "\(root)/b/1.jpg", "\(root)/b/2.jpg"])
        guard case .file(let first) = items[1] else {
            Issue.record("the second item is not a file: \(items[1])")
            return
        }
        #expect(first.stamp.size == 3)
        #expect(first.stamp.inode != 0)
    }

    @Test func hiddenEntriesArePassedOverAndCountedUnlessIncluded() async throws {
        try self.folder.write(".hidden.jpg")
        try self.folder.write(".cache/x.jpg")
        try self.folder.write("seen.jpg")
        let (items, tally) = await self.walk(Discovery(roots: [self.folder.path], includeHidden: false))
        #expect(self.files(items).count == 1)
        #expect(tally.hiddenEntries == 2)
        let (all, _) = await self.walk(Discovery(roots: [self.folder.path], includeHidden: true))
        #expect(self.files(all).count == 3)
    }

    @Test(
        "A root that yields no file (only a folder and a hidden entry) is named; one that does, or a stopped walk, is not"
    )
    func filelessRoots() async throws {
        try self.folder.write("bare/lost+found/.keep")
        try self.folder.write("bare/.DS_Store")
        try self.folder.write("full/a.jpg")
        let bare = self.folder.path + "/bare"
        let full = self.folder.path + "/full"
        let (_, tally) = await self.walk(Discovery(roots: [bare, full], includeHidden: false))
        #expect(tally.filelessRoots == [bare])
        // A root whose files all fall in other shards, or are all left out by a rule, is not empty.
        for index in 0..<4 {
            let shard = Discovery(roots: [full], includeHidden: false, shard: Shard(index: index, count: 4))
            #expect(await self.walk(shard).1.filelessRoots.isEmpty, "shard \(index)")
        }
        let excluded = await self.walk(
            Discovery(roots: [full], includeHidden: false, rules: ExclusionRules(excludes: ["*.jpg"], includes: [])))
        #expect(excluded.1.filelessRoots.isEmpty)
        let channel = AsyncChannel<DiscoveryBatch>()
        async let stopped = Discovery(roots: [bare], includeHidden: false).walk(
            into: channel, shouldStop: { true })
        for await _ in channel {}
        #expect(
            await stopped.filelessRoots.isEmpty, "a walk stopped before its end says nothing of what it did not see")
    }

    @Test("A name that is not UTF-8 (Latin-1 from an old system) is found, as its bytes say")
    func namesThatAreNotUTF8() async throws {
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
        let path = PathBytes.string(Array(self.folder.path.utf8) + [0x2F] + name)
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        let descriptor = PathBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        try #require(descriptor >= 0)
        #expect(Glibc.write(descriptor, bytes, bytes.count) == bytes.count)
        close(descriptor)

        let (items, _) = await self.walk(Discovery(roots: [self.folder.path], includeHidden: false))
        #expect(self.files(items) == [path])
        #expect(PathBytes.printable(path).hasSuffix("/caf\\xe9.jpg"))
    }

    @Test("A symbolic link loop ends, and is reported, not followed forever")
    func symlinkLoop() async throws {
        try self.folder.write("photos/a.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: self.folder.appending("photos/loop").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(
            atPath: self.folder.appending("photos/nowhere.jpg").path, withDestinationPath: "missing.jpg")
        let (items, _) = await self.walk(Discovery(roots: [self.folder.path], includeHidden: false))
        #expect(self.files(items) == [self.folder.path + "/photos/a.jpg"])
        let problems = items.compactMap {
            if case .problem(let path, let status, let reason) = $0 { (path, status, reason) } else { nil }
        }
        #expect(problems.contains { $0.0.hasSuffix("loop") && $0.1 == .skipped && $0.2.contains("already walked") })
        #expect(problems.contains { $0.0.hasSuffix("nowhere.jpg") && $0.2 == "broken symbolic link" })
    }

    @Test func excludedFoldersAreNeverEntered() async throws {
        try self.folder.write("in/a.jpg")
        try self.folder.write("archive/originals/b.jpg")
        let discovery = Discovery(
            roots: [self.folder.path], includeHidden: false, excluding: [self.folder.appending("archive").path])
        let (items, _) = await self.walk(discovery)
        #expect(self.files(items) == [self.folder.path + "/in/a.jpg"])
    }

    @Test func aSingleFileRootIsTakenAsIs() async throws {
        try self.folder.write("one.jpg")
        let (items, _) = await self.walk(
            Discovery(roots: [self.folder.appending("one.jpg").path], includeHidden: false))
        #expect(self.files(items) == [self.folder.path + "/one.jpg"])
    }
}

@Suite struct ShardTests {
    @Test("Shards partition the input: every file in exactly one shard")
    func shardsPartition() async throws {
        let folder = TemporaryFolder("shards")
        for index in 0..<200 {
            let url = folder.appending("d\(index % 7)/sub\(index % 3)/IMG_\(index).jpg")
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([UInt8(index & 0xFF)]).write(to: url)
        }
        var seen: [String: Int] = [:]
        for index in 0..<3 {
            let discovery = Discovery(roots: [folder.path], includeHidden: false, shard: Shard(index: index, count: 3))
            let channel = AsyncChannel<DiscoveryBatch>()
            async let tally = discovery.walk(into: channel, shouldStop: { false })
            var files: [String] = []
            for await batch in channel {
                files += batch.items.compactMap { if case .file(let file) = $0 { file.path } else { nil } }
            }
            _ = await tally
            #expect(files.count > 40, "shard \(index) has \(files.count) of 200 files: the split is lopsided")
            for file in files { seen[file, default: 0] += 1 }
        }
        #expect(seen.count == 200)
        #expect(seen.values.allSatisfy { $0 == 1 })
    }

    @Test func theSplitDependsOnlyOnTheRelativePath() {
        let moved = Shard.of(relativePath: "2025/party/IMG_0001.jpg", count: 8)
        #expect(Shard.of(relativePath: "2025/party/IMG_0001.jpg", count: 8) == moved)
        #expect(Discovery.relative("/mnt/a/2025/party/IMG_0001.jpg", to: "/mnt/a") == "2025/party/IMG_0001.jpg")
        #expect(Discovery.relative("/srv/b/2025/party/IMG_0001.jpg", to: "/srv/b") == "2025/party/IMG_0001.jpg")
        #expect(Discovery.relative("/x/IMG.jpg", to: "/x/IMG.jpg") == "IMG.jpg")
    }
}

extension DiscoveryTests {
    @Test("A Synology share: the photos are found, its thumbnails, bins and macOS leftovers counted by rule")
    func excludedByRule() async throws {
        for path in [
            "2024/IMG_1.JPG", "2024/IMG_2.JPG", "2024/@eaDir/IMG_1.JPG/SYNOPHOTO_THUMB_XL.jpg",
            "2024/@eaDir/IMG_2.JPG/SYNOPHOTO_THUMB_M.jpg", "#recycle/IMG_0.JPG", "2024/.DS_Store", "2024/._IMG_1.JPG",
            "2024/Thumbs.db", "2024/draft.xcf",
        ] {
            try self.folder.write(path)
        }
        let rules = ExclusionRules(excludes: ["*.xcf"])
        let (items, tally) = await self.walk(Discovery(roots: [self.folder.path], includeHidden: true, rules: rules))
        #expect(self.files(items) == ["2024/IMG_1.JPG", "2024/IMG_2.JPG"].map { self.folder.path + "/" + $0 })
        #expect(
            tally.excluded == ["@eaDir": 1, "#recycle": 1, ".DS_Store": 1, "._*": 1, "Thumbs.db": 1, "*.xcf": 1])
        #expect(tally.hiddenEntries == 0)
    }

    @Test("A .photoingestignore excludes its globs in its folder and below, not beside it")
    func ignoreFiles() async throws {
        for path in ["a/keep.jpg", "a/skip.jpg", "a/b/skip.jpg", "a/b/raw/x.tif", "c/skip.jpg"] {
            try self.folder.write(path)
        }
        try self.folder.write("a/.photoingestignore", "# not these\nskip.jpg\nb/raw/*.tif\n")
        let (items, tally) = await self.walk(Discovery(roots: [self.folder.path], includeHidden: false))
        #expect(self.files(items) == ["a/keep.jpg", "c/skip.jpg"].map { self.folder.path + "/" + $0 })
        #expect(tally.excluded == ["skip.jpg": 2, "b/raw/*.tif": 1])
        #expect(tally.hiddenEntries == 0, "the ignore file is not a hidden photo passed over")
        let (taken, _) = await self.walk(
            Discovery(roots: [self.folder.path], includeHidden: false, rules: ExclusionRules(includes: ["skip.jpg"])))
        #expect(self.files(taken).count == 4, "both skip.jpg are taken back; raw/x.tif stays out")
    }
}

import IngestCore
import Testing

@Suite struct ShardPathsTests {
    @Test("Every shard's path is this one's with the shard's index swapped, padding kept")
    func named() {
        #expect(
            ShardPaths.siblings(of: "/home/u/ingest/catalog-3.sqlite", index: 3, count: 4)
                == (0..<4).map { "/home/u/ingest/catalog-\($0).sqlite" })
        let padded = ShardPaths.siblings(of: "/s/2025/shard-07-of-12.sqlite", index: 7, count: 12)
        #expect(padded?[11] == "/s/2025/shard-11-of-12.sqlite")
        #expect(padded?[0] == "/s/2025/shard-00-of-12.sqlite")
        // The folder's numbers are never the index; the file name's last number that is, is.
        #expect(
            ShardPaths.siblings(of: "/state/3/catalog-3-v2.sqlite", index: 3, count: 5)?[4]
                == "/state/3/catalog-4-v2.sqlite")
        // A bare name, no folder.
        #expect(ShardPaths.siblings(of: "c1.sqlite", index: 1, count: 2) == ["c0.sqlite", "c1.sqlite"])
    }

    @Test("The pattern of every shard's path has the index's place starred")
    func pattern() {
        #expect(ShardPaths.pattern(of: "/s/3/catalog-3.sqlite", index: 3) == "/s/3/catalog-*.sqlite")
        #expect(ShardPaths.pattern(of: "/s/shard-07-of-12.sqlite", index: 7) == "/s/shard-*-of-12.sqlite")
        #expect(ShardPaths.pattern(of: "/s/catalog.sqlite", index: 0) == nil)
    }

    @Test("A name holding no number that is the index names nothing")
    func unnamed() {
        #expect(ShardPaths.siblings(of: "/state/catalog.sqlite", index: 2, count: 8) == nil)
        #expect(ShardPaths.siblings(of: "/state/catalog-12.sqlite", index: 1, count: 8) == nil)
    }
}

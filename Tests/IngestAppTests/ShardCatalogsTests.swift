import IngestApp
import IngestHashing
import Testing

@Suite struct ShardCatalogsTests {
    func catalogs(_ path: String, _ shard: String) -> [String]? {
        ShardCatalogs(shard: Shard(shard)!, catalog: path).catalogs
    }

    @Test("Every shard's catalog is this one's name with the shard's index swapped")
    func named() {
        #expect(
            self.catalogs("/home/u/ingest/catalog-3.sqlite", "3/4")
                == (0..<4).map { "/home/u/ingest/catalog-\($0).sqlite" })
    }

    @Test("A name holding no number that is the index names no other catalog, and the line says so")
    func unnamed() {
        let shard = ShardCatalogs(shard: Shard("2/8")!, catalog: "/state/catalog.sqlite")
        #expect(shard.catalogs == nil)
        #expect(shard.line.hasPrefix("Shard 2 of 8 (--shard 2/8); this catalog's name holds no number"))
        let named = ShardCatalogs(shard: Shard("1/3")!, catalog: "/c/catalog-1.sqlite")
        #expect(
            named.line.hasSuffix(
                "named as this one is: /c/catalog-0.sqlite … /c/catalog-2.sqlite; "
                    + "one report over them all: photoingest report '/c/catalog-*.sqlite'"))
    }
}

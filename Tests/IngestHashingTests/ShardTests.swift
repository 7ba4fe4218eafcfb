import Foundation
import IngestHashing
import Testing

@Suite struct ShardTests {
    @Test("K/N parses to shard K of N, 0-based; anything else is refused")
    func parses() {
        #expect(Shard("1/4") == Shard(index: 1, count: 4))
        #expect(Shard("0/1")?.description == "0/1")
        #expect(Shard("4/4") == nil && Shard("-1/4") == nil && Shard("1/0") == nil && Shard("x") == nil)
        #expect(Shard("1/4/2") == nil && Shard("1/") == nil)
    }

    @Test("Each path is in exactly one shard, and 10,000 camera-like paths spread within 10% of even")
    func partitionsEvenly() {
        let paths = (0..<10_000).map {
            "2025/\($0 / 500)-party/DCIM/100CANON/IMG_\(String(format: "%04d", $0 % 9_999)).CR3"
        }
        let shards = (0..<8).compactMap { Shard(index: $0, count: 8) }
        var sizes = [Int](repeating: 0, count: 8)
        for path in paths {
            let holding = shards.filter { $0.contains(relativePath: path) }
            #expect(holding.count == 1, "\(path) is in \(holding.count) shards")
            sizes[Shard.of(relativePath: path, count: 8)] += 1
        }
        #expect(sizes.allSatisfy { abs($0 - 1_250) < 125 }, "shard sizes \(sizes)")
    }

    @Test("The shard is a function of the relative path alone, the same on every machine and in every run")
    func stable() {
        // SHA-256 of the path's bytes, its first 8 bytes big-endian, modulo the count; the values
        // are Python hashlib's. A shard's catalog must keep holding the same files across runs.
        #expect(Shard.of(relativePath: "2025/party/IMG_0001.jpg", count: 8) == 7)
        #expect(Shard.of(relativePath: "a/IMG_0.jpg", count: 5) == 3)
        #expect(Shard.of(relativePath: "DCIM/100CANON/IMG_0420.CR3", count: 32) == 6)
    }
}

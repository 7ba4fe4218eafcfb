import Foundation
import IngestCore
import IngestHashing
import Testing

@Suite struct ShardPlanTests {
    /// An import shaped like a phone's and a camera's: photos of 2-4 MB, a tenth videos of 20 MB to
    /// 2 GB (drawn by a fixed generator, so that the test is the same every time).
    static func sizes(files: Int) -> [String: Int64] {
        var generator = SplitMix64(seed: 7)
        var sizes: [String: Int64] = [:]
        for index in 0..<files {
            let video = index % 10 == 0
            let bytes: Int64 =
                video
                ? 20_000_000 + Int64(generator.next() % 2_000_000_000) / Int64(1 + generator.next() % 8)
                : 2_000_000 + Int64(generator.next() % 2_000_000)
            sizes["2025/event-\(index / 300)/img_\(index)"] = bytes
        }
        return sizes
    }

    @Test("A plan gives every shard about the same bytes where the hash alone does not")
    func even() {
        let sizes = Self.sizes(files: 3_000)
        let plan = ShardPlan(sizes: sizes, count: 16)
        #expect(plan.units == 3_000 && plan.bytes == sizes.values.reduce(0, +))
        #expect(plan.loads.reduce(0, +) == plan.bytes)
        #expect(plan.spread < 1.01, "\(plan.loads)")
        // By the hash alone, the same files.
        var byHash = [Int64](repeating: 0, count: 16)
        for (key, bytes) in sizes { byHash[Shard.of(relativePath: key, count: 16)] += bytes }
        let hashSpread = Double(byHash.max()!) / (Double(plan.bytes) / 16)
        #expect(hashSpread > 1.1, "the hash was even already: \(hashSpread)")
        // Only the heavy units are named: the plan stays small.
        #expect(!plan.placed.isEmpty && plan.placed.count <= 16 * Int(ShardPlan.divisor))
        let threshold = plan.bytes / 16 / ShardPlan.divisor
        #expect(plan.placed.keys.allSatisfy { sizes[$0]! >= threshold })
    }

    @Test("The same files give the same plan whatever order they are met in; every file is in one shard")
    func deterministic() {
        let sizes = Self.sizes(files: 500)
        let reversed = Dictionary(uniqueKeysWithValues: sizes.sorted { $0.key > $1.key })
        #expect(ShardPlan(sizes: sizes, count: 8) == ShardPlan(sizes: reversed, count: 8))
        let plan = ShardPlan(sizes: sizes, count: 8)
        let shards = (0..<8).map { index -> Shard in
            var shard = Shard(index: index, count: 8)!
            shard.placed = plan.placed
            return shard
        }
        for key in sizes.keys + ["added/later"] {
            #expect(shards.filter { $0.contains(relativePath: key) }.count == 1, "\(key)")
        }
        // A file the plan does not name goes by its hash.
        #expect(shards[Shard.of(relativePath: "added/later", count: 8)].contains(relativePath: "added/later"))
        // One shard, or nothing to plan: still a plan.
        #expect(ShardPlan(sizes: sizes, count: 1).loads == [plan.bytes])
        #expect(ShardPlan(sizes: [:], count: 4).spread == 1)
    }
}

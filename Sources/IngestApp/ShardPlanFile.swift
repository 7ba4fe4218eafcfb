import Foundation
import IngestCore
import IngestHashing

/// `--shard-plan FILE`: the ``ShardPlan`` every shard of an import reads, drawn by the first shard
/// that finds none there.
///
/// Shards start at different times, and a plan drawn by each from what it saw would differ once a
/// file is added between them: a file could fall in two shards or in none. One plan, written once
/// (linked into place, so that of two shards drawing at once one wins and the other reads it),
/// keeps every shard on the same split; a file added after it goes by its hash in all of them. A
/// re-run reads the same plan, so no file moves between shards; remove it to draw a new one.
public struct ShardPlanFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The plan at ``path``; when there is none, the one drawn from the sizes `draw` gives,
    /// written there first. `drawn` says which.
    ///
    /// - Throws: ``IngestError`` `.invalidConfiguration` when the plan there is not one, is for
    ///   another number of shards, or cannot be written; `.stopped` when `draw` gives nothing
    ///   (the run was stopped while it looked: a plan of part of the files is never written).
    public func plan(count: Int, draw: () -> [String: Int64]?) throws(IngestError) -> (plan: ShardPlan, drawn: Bool) {
        if let plan = try self.read() { return (try self.checked(plan, count: count), false) }
        guard let sizes = draw() else {
            throw IngestError(.stopped, "stopped while drawing the shard plan \(self.path); nothing was written")
        }
        var plan = ShardPlan(sizes: sizes, count: count)
        plan.drawnAt = RFC3339.format(Date())
        let temporary = self.path + ".\(getpid()).tmp"
        do {
            try CompactJSON.data(plan).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw IngestError(.invalidConfiguration, "cannot write the shard plan \(self.path): \(error)")
        }
        defer { unlink(temporary) }
        guard link(temporary, self.path) == 0 else {
            let error = errno
            let reason = FileSystem.message(error)
            // Another shard drew one meanwhile: every shard takes the one that is there.
            if error == EEXIST, let theirs = try self.read() { return (try self.checked(theirs, count: count), false) }
            throw IngestError(.invalidConfiguration, "cannot write the shard plan \(self.path): \(reason)")
        }
        return (plan, true)
    }

    /// The plan at ``path``; nil when there is no file.
    func read() throws(IngestError) -> ShardPlan? {
        guard let data = FileManager.default.contents(atPath: self.path) else {
            guard FileManager.default.fileExists(atPath: self.path) else { return nil }
            throw IngestError(.invalidConfiguration, "cannot read the shard plan \(self.path)")
        }
        do {
            return try JSONDecoder().decode(ShardPlan.self, from: data)
        } catch {
            throw IngestError(
                .invalidConfiguration,
                "\(self.path) is not a shard plan (\(error)); give --shard-plan a file of its own, or remove it")
        }
    }

    func checked(_ plan: ShardPlan, count: Int) throws(IngestError) -> ShardPlan {
        guard plan.count == count, plan.loads.count == count,
            plan.placed.values.allSatisfy({ (0..<count).contains($0) })
        else {
            throw IngestError(
                .invalidConfiguration,
                "the shard plan \(self.path) was drawn for \(plan.count) shards, and this run is one of \(count): "
                    + "give each import its own --shard-plan, or remove this one to draw another")
        }
        return plan
    }

    /// What a run says of its plan: where it came from and how even it makes the shards.
    public static func line(_ plan: ShardPlan, path: String, drawn: Bool) -> String {
        let how = drawn ? "drawn now" : "read" + (plan.drawnAt.map { ", drawn \($0)" } ?? "")
        let share = Double(plan.bytes) / Double(max(plan.count, 1))
        return "Shard plan \(path) (\(how)): \(plan.placed.count) of \(plan.units) files (a pair as one) "
            + "placed by size; the heaviest shard holds "
            + String(
                format: share >= 1e9 ? "%.2fx the mean of %.1f GB" : "%.2fx the mean of %.0f MB", plan.spread,
                share >= 1e9 ? share / 1e9 : share / 1e6)
    }
}

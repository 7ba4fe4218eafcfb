import Foundation
import IngestCore

extension EventSummary {
    /// One event's summary over the shards of a sharded import, each shard's summary given.
    ///
    /// Counts, files and bytes add up. The shards ran side by side, so the import's time is the
    /// slowest shard's, and its rate the files over that time. A stage's count and total add up;
    /// percentiles do not, so each is the highest of the shards'. Nil for no summaries.
    public static func merging(_ shards: [EventSummary]) -> EventSummary? {
        guard var merged = shards.first else { return nil }
        for shard in shards.dropFirst() {
            merged.interrupted = merged.interrupted || shard.interrupted
            merged.dryRun = merged.dryRun || shard.dryRun
            merged.files += shard.files
            for status in FileStatus.allCases { merged.counts[status] += shard.counts[status] }
            merged.unchanged += shard.unchanged
            merged.nearEdge += shard.nearEdge
            merged.knownBroken += shard.knownBroken
            merged.datedByFileTime += shard.datedByFileTime
            merged.bytes += shard.bytes
            merged.seconds = max(merged.seconds, shard.seconds)
            merged.stages.merge(shard.stages) { first, second in
                StageFigures(
                    count: first.count + second.count, p50Seconds: max(first.p50Seconds, second.p50Seconds),
                    p95Seconds: max(first.p95Seconds, second.p95Seconds),
                    totalSeconds: first.totalSeconds + second.totalSeconds)
            }
            merged.catalogProblem = merged.catalogProblem ?? shard.catalogProblem
            merged.stoppedBy = merged.stoppedBy ?? shard.stoppedBy
            if let transfers = shard.transfers {
                merged.transfers = (merged.transfers ?? [:]).merging(transfers, uniquingKeysWith: +)
            }
        }
        merged.filesPerSecond = merged.seconds > 0 ? Double(merged.files - merged.unchanged) / merged.seconds : 0
        merged.summary = merged.counts.summaryLine(dryRun: merged.dryRun)
        merged.closingLine = merged.counts.closingLine(dryRun: merged.dryRun)
        return merged
    }
}

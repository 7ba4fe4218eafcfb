import IngestCatalog
import IngestCore
import IngestDiscovery
import IngestOutcome

/// What the walk makes of each item of a batch, from what earlier runs left: an outcome known
/// without opening it, nothing to do, a file for the events that still need it, or a group that
/// may hold pairs.
extension Pipeline {
    /// What becomes of one item of a walk batch.
    enum Work: Sendable {
        /// Its outcomes, known without opening it: a walk problem, or a file known broken.
        case finished(FileResult)
        /// Finished in every event by an earlier run, and unchanged since: not opened.
        case unchanged(DiscoveredFile)
        /// One file for the events that still need it, with what an earlier run learned of it.
        case file(DiscoveredFile, EarlierRuns.Plan, KnownFacts?)
        /// Files that may be a pair, run as one task so that one can follow the other; a file
        /// done earlier is read again only to pair the others.
        case group([GroupMember])

        /// The paths of the files it holds.
        var paths: [String] {
            switch self {
            case .finished(let result): result.outcomes.first.map { [$0.path] } ?? []
            case .unchanged(let file), .file(let file, _, _): [file.path]
            case .group(let members): members.map(\.file.path)
            }
        }
    }

    /// The work of the item at `position`; nil for a file whose group's first file brings it.
    static func work(
        at position: Int, of items: [DiscoveryItem], earlier: EarlierRuns,
        groups: (members: [Int: [Int]], followers: Set<Int>), events: [Event]
    ) -> Work? {
        guard !groups.followers.contains(position) else { return nil }
        switch items[position] {
        case .problem(let path, let status, let reason):
            let verdict: Verdict = status == .failed ? .failed(IngestError(.unreadable, reason)) : .skipped(reason)
            let outcome = FileOutcome(FileFacts(path: path, stamp: nil), verdict)
            return .finished(FileResult(outcomes: events.map { _ in outcome }, unchanged: events.map { _ in false }))
        case .file(let file):
            if let others = groups.members[position] {
                return .group(
                    ([position] + others).map { member in
                        let plan = earlier.plan(at: member)
                        return GroupMember(
                            file: items[member].file!, pending: plan.pending, earlier: plan.knownBroken,
                            again: plan.again)
                    })
            }
            let plan = earlier.plan(at: position)
            guard !plan.pending.isEmpty else {
                return plan.knownBroken.isEmpty
                    ? .unchanged(file)
                    : .finished(FileResult(unchanged: file, events: events, earlier: plan.knownBroken))
            }
            return .file(file, plan, earlier.facts(of: file))
        }
    }
}

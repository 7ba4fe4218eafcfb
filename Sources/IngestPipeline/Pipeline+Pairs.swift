import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestDiscovery
import IngestImaging
import IngestOutcome

extension Pipeline {
    /// A file of a group the walk found (one folder, one name up to the extension) and what the
    /// catalog said of it.
    struct GroupMember: Sendable {
        var file: DiscoveredFile
        var pending: [Int]
        var earlier: [Int: FileOutcome]
        var again = GivenAgain()
    }

    /// The files of a group: each examined, then paired by ``Pairing``, then placed and
    /// recorded, a file that follows another placed by its lead's capture time. Files the
    /// catalog knew are read again, those already done included: what pairs them is not in the
    /// catalog.
    static func ingest(
        group: [GroupMember], events: [Event], stages: Stages, context: StageContext
    ) async -> [FileResult] {
        var examinations: [Examination] = []
        for member in group {
            examinations.append(await Self.examine(member.file, known: nil, stages: stages, context: context))
        }
        var candidates: [Pairing.Member] = []
        var positions: [Int] = []
        for (position, examination) in examinations.enumerated() {
            guard case .ready(let examined) = examination, let kind = examined.facts.kind else { continue }
            candidates.append(
                Pairing.Member(
                    path: group[position].file.path, kind: kind, capture: examined.capture, identity: examined.identity)
            )
            positions.append(position)
        }
        var leads: [Int: CaptureTime] = [:]
        var pairs: [Int: FilePair] = [:]
        for match in Pairing.matches(candidates) {
            let lead = positions[match.lead]
            let follower = positions[match.follower]
            leads[follower] = candidates[match.lead].capture
            pairs[lead] = FilePair(path: group[follower].file.path, reason: match.reason)
            pairs[follower] = FilePair(path: group[lead].file.path, reason: match.reason)
        }
        var results: [FileResult] = []
        for (position, member) in group.enumerated() {
            var result = FileResult(unchanged: member.file, events: events, earlier: member.earlier)
            // A file done earlier was read only so that its partner can follow it.
            guard !member.pending.isEmpty else {
                results.append(result)
                continue
            }
            let pending = member.pending.map { events[$0] }
            let outcomes: [FileOutcome]
            switch examinations[position] {
            case .ended(let outcome): outcomes = pending.map { _ in outcome }
            case .ready(let examined):
                outcomes = await Self.place(
                    member.file, examined, events: pending, lead: leads[position], pair: pairs[position],
                    stages: stages,
                    context: context)
            }
            result.take(outcomes, at: member.pending, again: member.again)
            await Self.record(&result, stages: stages, context: context)
            results.append(result)
        }
        return results
    }
}

import IngestCore
import IngestDating

/// Which files of a group are pairs. A group is the files of one folder that share a name up to
/// the extension (`IMG_0042.HEIC`, `IMG_0042.MOV`): the name only proposes, the files' own
/// metadata decides, since unrelated files share names too.
///
/// - A Live Photo: a still (HEIC, JPEG) and a video with the same Apple content identifier.
/// - A raw photo and its JPEG (or HEIC): the same camera and the same wall-clock second.
///
/// The still (or the JPEG) leads: the other file follows it into its events, so that a clip a
/// second longer than its still never lands on the other side of a window's edge.
enum Pairing {
    struct Member {
        var path: String
        var kind: MediaKind
        var capture: CaptureTime
        var identity: MediaIdentity
    }

    /// `follower` goes where `lead` goes.
    struct Match: Equatable {
        var lead: Int
        var follower: Int
        var reason: String
    }

    static func matches(_ members: [Member]) -> [Match] {
        var matches: [Match] = []
        var taken: Set<Int> = []
        func isStill(_ member: Member) -> Bool { !member.kind.isVideo && !member.kind.isRaw }
        for (clip, member) in members.enumerated() where member.kind.isVideo {
            guard let identifier = member.identity.contentIdentifier,
                let still = members.indices.first(where: {
                    !taken.contains($0) && isStill(members[$0]) && members[$0].identity.contentIdentifier == identifier
                })
            else { continue }
            taken.formUnion([still, clip])
            matches.append(
                Match(lead: still, follower: clip, reason: "Live Photo: the same content identifier \(identifier)"))
        }
        for (raw, member) in members.enumerated() where member.kind.isRaw && !taken.contains(raw) {
            guard let camera = member.identity.camera, let second = Self.second(member.capture),
                let still = members.indices.first(where: {
                    !taken.contains($0) && isStill(members[$0]) && members[$0].identity.camera == camera
                        && Self.second(members[$0].capture) == second
                })
            else { continue }
            taken.formUnion([still, raw])
            matches.append(
                Match(
                    lead: still, follower: raw,
                    reason: "raw and JPEG of one shot: the same camera (\(camera)) and time (\(second))"))
        }
        return matches
    }

    /// The camera's wall clock to the second, when the camera wrote one.
    static func second(_ capture: CaptureTime) -> LocalDateTime? {
        guard var local = capture.localTime, capture.source != .fileMTime else { return nil }
        local.millisecond = 0
        return local
    }
}

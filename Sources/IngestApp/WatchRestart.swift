import IngestCore
import Synchronization

/// Why a watch ends one run to start another: the server's events changed, or SIGHUP asked for
/// the config file to be read again. Set from the refresh and the signal handler, read when the
/// run has ended.
final class WatchRestart: Sendable {
    enum Reason: Sendable, Equatable {
        /// The server lists other events (or other windows) than the run has: named for the user.
        case eventsChanged(String)
        case reload

        /// The reason in a few words, for the `--json` document of the run it ended.
        var words: String {
            switch self {
            case .eventsChanged(let change): "the server's events changed: \(change)"
            case .reload: "SIGHUP: the settings read again"
            }
        }
    }

    private let reason = Mutex<Reason?>(nil)

    var current: Reason? { self.reason.withLock { $0 } }

    /// Asks for a restart; the first reason given stands.
    func request(_ reason: Reason) {
        self.reason.withLock { $0 = $0 ?? reason }
    }

    /// What changed between the events a run has and those the server lists now; nil when nothing did.
    static func change(from old: [Event], to new: [Event]) -> String? {
        let before = Dictionary(old.map { ($0.id, $0) }) { first, _ in first }
        let after = Dictionary(new.map { ($0.id, $0) }) { first, _ in first }
        var changes: [String] = []
        for event in new where before[event.id] == nil { changes.append("new event \(event.name)") }
        for event in old where after[event.id] == nil { changes.append("\(event.name) no longer listed") }
        for event in new where before[event.id].map({ $0.window != event.window }) == true {
            changes.append("\(event.name)'s window changed")
        }
        return changes.isEmpty ? nil : changes.joined(separator: ", ")
    }
}

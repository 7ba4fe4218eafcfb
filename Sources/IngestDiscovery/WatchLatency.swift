import Synchronization

/// How long files wait in a watch: from the moment a file was complete (closed after writing, or
/// quiet for the settle time) to its last outcome (for an upload, the server's answer). Keeps the
/// last 1,024 waits, so it stays small however long the watch lives.
public final class WatchLatency: Sendable {
    private struct State {
        var arrived: [String: ContinuousClock.Instant] = [:]
        var waits: [Duration] = []
        var next = 0
        var measured = 0
        var held = 0
    }

    static let kept = 1024
    private let state = Mutex(State())

    public init() {}

    /// `path` was complete at `instant` and is on its way.
    public func arrived(_ path: String, at instant: ContinuousClock.Instant) {
        self.state.withLock { $0.arrived[path] = instant }
    }

    /// `path` has its outcome; counted once, for files that arrived while watched.
    public func finished(_ path: String, at now: ContinuousClock.Instant = .now) {
        self.state.withLock { state in
            guard let arrived = state.arrived.removeValue(forKey: path) else { return }
            let wait = now - arrived
            if state.waits.count < Self.kept {
                state.waits.append(wait)
            } else {
                state.waits[state.next] = wait
            }
            state.next = (state.next + 1) % Self.kept
            state.measured += 1
        }
    }

    /// `count` files are quiet but not whole, their writers' close awaited (``SettleTable``).
    public func holding(_ count: Int) {
        self.state.withLock { $0.held = count }
    }

    /// How many files are held, not whole.
    public var held: Int { self.state.withLock { $0.held } }

    /// What the waits were: the median and 95th percentile of the last ones kept, how many files
    /// were measured in all, and how many are on their way now.
    public var figures: (p50: Duration?, p95: Duration?, measured: Int, waiting: Int) {
        self.state.withLock { state in
            let sorted = state.waits.sorted()
            func percentile(_ fraction: Double) -> Duration? {
                sorted.isEmpty
                    ? nil : sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
            }
            return (percentile(0.5), percentile(0.95), state.measured, state.arrived.count)
        }
    }
}

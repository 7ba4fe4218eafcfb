import Foundation
import IngestCore
import Synchronization

/// Tells a server that is down from a file that will not go: every request reports how it went,
/// and once no request has had any answer (connections refused, timing out, cut) for
/// `giveUpAfter`, the breaker opens and every request from then on fails at once with
/// `.serverUnreachable`. Until then a request that got no answer, while no other request got one
/// either, keeps probing with its back-off whatever its retry count: a server down for less than
/// `giveUpAfter` costs no file a failure. One request that times out while others are answered
/// is that file's problem, and its retries decide.
public final class CircuitBreaker: Sendable {
    public let host: String
    public let giveUpAfter: TimeInterval
    private let state = Mutex(State())

    struct State {
        /// When the current run of unanswered requests began; nil while the server answers.
        var failingSince: ContinuousClock.Instant?
        /// When some request last had an answer.
        var lastAnswer: ContinuousClock.Instant?
        var failures = 0
        var lastError = ""
        var open = false
    }

    public init(host: String, giveUpAfter: TimeInterval) {
        self.host = host
        self.giveUpAfter = giveUpAfter
    }

    /// libcurl's codes for "no answer from the server": cannot resolve (5, 6), cannot connect (7),
    /// timed out (28), nothing received (52), send or receive failed (55, 56).
    static let unanswered: Set<Int> = [5, 6, 7, 28, 52, 55, 56]

    public static func isUnanswered(_ error: TransportError) -> Bool { Self.unanswered.contains(error.code) }

    /// Throws `.serverUnreachable` once the breaker is open.
    public func check() throws(IngestError) {
        if let error = self.state.withLock({ $0.open ? self.error($0) : nil }) { throw error }
    }

    /// The server answered (whatever the status): it is there.
    public func answered() {
        self.state.withLock {
            $0.failingSince = nil
            $0.failures = 0
            $0.lastAnswer = .now
        }
    }

    /// Whether no request has had an answer since `instant`: the server, not the file, is the problem.
    public func silent(since instant: ContinuousClock.Instant) -> Bool {
        self.state.withLock { state in state.lastAnswer.map { $0 < instant } ?? true }
    }

    /// A request got no answer. Returns true while the breaker is still closed (keep probing).
    public func unanswered(_ error: TransportError) -> Bool {
        self.state.withLock { state in
            let now = ContinuousClock.now
            let since = state.failingSince ?? now
            state.failingSince = since
            state.failures += 1
            state.lastError = error.message
            if (now - since) >= .milliseconds(Int(self.giveUpAfter * 1_000)) { state.open = true }
            return !state.open
        }
    }

    public var isOpen: Bool { self.state.withLock { $0.open } }

    private func error(_ state: State) -> IngestError {
        IngestError(
            .serverUnreachable,
            "the server \(self.host) did not answer for \(String(format: "%g", self.giveUpAfter)) s (\(state.lastError); "
                + "\(state.failures) \(state.failures == 1 ? "try" : "tries"))")
    }
}

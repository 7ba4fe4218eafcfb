import Foundation
import IngestCore

/// Tells a server that is down from a file that will not go.
///
/// Every try of a request reports how it went. A try that got no answer at all (connection
/// refused, timed out, cut) while no request sent after it was answered either is a probe of a
/// server that seems gone: it costs the request none of its retries. The breaker opens once no
/// request has had an answer for `giveUpAfter` (or, before the server has answered once in this
/// run, for at most ``firstContactLimit``). Every request from then on fails at once with
/// `.serverUnreachable`. So a server down for less than that costs no file a failure, and one
/// down for longer stops the run in bounded time. A request that times out while requests sent after
/// it are answered is that file's problem, and its retries decide.
public final class CircuitBreaker: Sendable {
    /// The server, as it may be shown (no credentials).
    public let host: String
    public let giveUpAfter: TimeInterval
    /// A server that has not answered once since the run began is more likely a wrong address or
    /// a server that is down than one restarting: it is given at most this long.
    public static let firstContactLimit: TimeInterval = 10
    private let state = Locked(State())

    struct State {
        /// When the current run of unanswered tries began; nil while the server answers.
        var failingSince: ContinuousClock.Instant?
        /// The latest start of a try that got an answer: answers to tries sent before a failure
        /// say nothing about the server since.
        var latestAnsweredStart: ContinuousClock.Instant?
        var failures = 0
        var lastError = ""
        var open = false
        var limit: TimeInterval = 0
    }

    public init(host: String, giveUpAfter: TimeInterval) {
        self.host = host
        self.giveUpAfter = giveUpAfter
    }

    /// libcurl's codes for "no answer from the server": cannot resolve (5, 6), cannot connect (7),
    /// timed out (28), nothing received (52), send or receive failed (55, 56).
    static let unansweredCodes: Set<Int> = [5, 6, 7, 28, 52, 55, 56]

    public static func isUnanswered(_ error: TransportError) -> Bool { Self.unansweredCodes.contains(error.code) }

    /// Throws `.serverUnreachable` once the breaker is open.
    public func check() throws(IngestError) {
        if let error = self.state.withLock({ $0.open ? self.error($0) : nil }) { throw error }
    }

    /// A try begun at `started` was answered (whatever the status): the server is there.
    public func answered(tryStartedAt started: ContinuousClock.Instant) {
        self.state.withLock { state in
            state.failingSince = nil
            state.failures = 0
            state.latestAnsweredStart = max(state.latestAnsweredStart ?? started, started)
        }
    }

    /// What an unanswered try means for its request.
    public enum Verdict: Sendable, Equatable {
        /// No try sent after this one was answered: the server seems gone; try again, free.
        case probe
        /// Tries sent later were answered: this request's own problem; its retries decide.
        case retry
        /// The server has answered no one for too long: stop.
        case open
    }

    /// A try begun at `started` got no answer at all.
    public func unanswered(_ error: TransportError, tryStartedAt started: ContinuousClock.Instant) -> Verdict {
        self.state.withLock { state in
            let now = ContinuousClock.now
            let since = state.failingSince ?? now
            state.failingSince = since
            state.failures += 1
            state.lastError = error.message
            let limit =
                state.latestAnsweredStart == nil ? min(self.giveUpAfter, Self.firstContactLimit) : self.giveUpAfter
            if now - since >= .milliseconds(Int(limit * 1_000)) {
                state.open = true
                state.limit = limit
                return .open
            }
            return (state.latestAnsweredStart.map { $0 < started } ?? true) ? .probe : .retry
        }
    }

    public var isOpen: Bool { self.state.withLock { $0.open } }

    /// The longest wait between probes: a few probes fit in the shortest time the breaker waits.
    public var longestProbeWait: TimeInterval { min(self.giveUpAfter, Self.firstContactLimit) / 4 }

    private func error(_ state: State) -> IngestError {
        IngestError(
            .serverUnreachable,
            "the server \(self.host) did not answer for \(String(format: "%g", state.limit)) s (\(state.lastError); "
                + "\(state.failures) \(state.failures == 1 ? "try" : "tries"))")
    }
}

import Hummingbird
import IngestCore

/// Counts of what the server injected, so that tests can check the client retried each one, and
/// how long clients waited after a 429 before trying the same request again.
public final class FaultCounters: Sendable {
    private let counts = Locked<[String: Int]>([:])
    /// When each request still unanswered but for a 429 was throttled, by its request key.
    private let throttledAt = Locked<[String: ContinuousClock.Instant]>([:])
    public init() {}
    func add(_ name: String) { self.counts.withLock { $0[name, default: 0] += 1 } }

    /// A request arrived: if it repeats one that was throttled, the wait between is counted.
    func arrived(_ key: String) {
        guard let throttled = self.throttledAt.withLock({ $0.removeValue(forKey: key) }) else { return }
        let waited = ContinuousClock.now - throttled
        let milliseconds = Int(
            waited.components.seconds * 1_000 + waited.components.attoseconds / 1_000_000_000_000_000)
        self.counts.withLock {
            $0["retriedAfterThrottle", default: 0] += 1
            $0["shortestWaitAfterThrottleMs"] = min($0["shortestWaitAfterThrottleMs"] ?? .max, milliseconds)
        }
    }

    func throttled(_ key: String) {
        self.add("throttled")
        self.throttledAt.withLock { $0[key] = .now }
    }

    public var snapshot: [String: Int] { self.counts.withLock { $0 } }
}

/// Fails, throttles or slows requests at the configured rates, before they reach a route.
struct FaultInjectionMiddleware: RouterMiddleware {
    typealias Context = PhotoShareRequestContext
    let faults: ServerConfiguration.Faults
    let counters: FaultCounters
    let dice: FaultDice

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if self.faults.latencyMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(self.faults.latencyMilliseconds))
        }
        // The stats route is how tests read the counters: never fail it.
        if request.uri.path != "/_faults" {
            // A client's retries repeat its request's Idempotency-Key; without one, the route stands for it.
            let key =
                request.headers.first { $0.name.canonicalName == "idempotency-key" }?.value
                ?? "\(request.method) \(request.uri.path)"
            self.counters.arrived(key)
            if self.dice.roll(self.faults.failRate) {
                self.counters.add("failed")
                let status = HTTPResponse.Status(code: self.faults.failStatus)
                throw APIError(status, "injected failure")
            }
            if self.dice.roll(self.faults.throttleRate) {
                self.counters.throttled(key)
                throw APIError(.tooManyRequests, "slow down", headers: [.retryAfter: "1"])
            }
        }
        return try await next(request, context)
    }
}

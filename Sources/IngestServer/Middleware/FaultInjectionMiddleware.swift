import Hummingbird
import Synchronization

/// Counts of what the server injected, so that tests can check the client retried each one.
public final class FaultCounters: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    public init() {}
    func add(_ name: String) { self.counts.withLock { $0[name, default: 0] += 1 } }
    public var snapshot: [String: Int] { self.counts.withLock { $0 } }
}

/// Fails, throttles or slows requests at the configured rates, before they reach a route.
struct FaultInjectionMiddleware: RouterMiddleware {
    typealias Context = PhotoShareRequestContext
    let faults: ServerConfiguration.Faults
    let counters: FaultCounters

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if self.faults.latencyMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(self.faults.latencyMilliseconds))
        }
        // The stats route is how tests read the counters: never fail it.
        if request.uri.path != "/_faults" {
            if Double.random(in: 0..<1) < self.faults.failRate {
                self.counters.add("failed")
                let status = HTTPResponse.Status(code: self.faults.failStatus)
                throw APIError(status, "injected failure")
            }
            if Double.random(in: 0..<1) < self.faults.throttleRate {
                self.counters.add("throttled")
                throw APIError(.tooManyRequests, "slow down", headers: [.retryAfter: "1"])
            }
        }
        return try await next(request, context)
    }
}

import Foundation

/// Which answers are worth another try, and how long to wait before it.
public struct RetryPolicy: Sendable {
    /// Tries after the first.
    public var retries: Int
    /// The first wait; each retry doubles it, up to `maximumDelay`, and a random share of it
    /// is taken (between half and all of it) so that many clients do not retry in step.
    public var baseDelay: TimeInterval
    public var maximumDelay: TimeInterval
    /// A server's Retry-After is honoured up to this.
    public var maximumRetryAfter: TimeInterval = 120

    public init(retries: Int = 5, baseDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 30) {
        self.retries = retries
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// 5xx, 429 and 408 may succeed later; other 4xx will not.
    public static func isRetryable(status: Int) -> Bool {
        status >= 500 || status == 429 || status == 408
    }

    /// How long to wait before retry number `attempt` (0 for the first retry).
    public func delay(attempt: Int, retryAfter: String?) -> TimeInterval {
        if let retryAfter, let seconds = Self.seconds(retryAfter) {
            return min(max(seconds, 0), self.maximumRetryAfter)
        }
        let ceiling = min(self.maximumDelay, self.baseDelay * pow(2, Double(min(attempt, 30))))
        return Double.random(in: ceiling / 2...ceiling)
    }

    /// Retry-After as seconds, or as an HTTP date.
    static func seconds(_ header: String) -> TimeInterval? {
        let text = header.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text).map { $0.timeIntervalSinceNow }
    }
}

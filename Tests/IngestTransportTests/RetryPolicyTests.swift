import Foundation
import IngestTransport
import Testing

/// Which answers photoingest tries again, and how long it waits: the server's Retry-After when
/// it gives one, else exponential back-off with jitter.
@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(retries: 5, baseDelay: 0.5, maximumDelay: 30)

    /// Enough draws that a bound broken even one time in a hundred shows up.
    static let samples = 2_000

    /// An HTTP date (IMF-fixdate, RFC 9110) as servers write Retry-After.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    @Test("5xx, 429 and 408 may succeed later and are retried; other 4xx never are")
    func retryableStatuses() {
        for status in [500, 502, 503, 504, 599, 429, 408] {
            #expect(RetryPolicy.isRetryable(status: status), "\(status)")
        }
        for status in [400, 401, 403, 404, 409, 413, 422, 200, 301] {
            #expect(!RetryPolicy.isRetryable(status: status), "\(status)")
        }
    }

    @Test("Retry-After in seconds is waited as given, surrounding blanks and fractions included")
    func retryAfterSeconds() {
        #expect(self.policy.delay(attempt: 0, retryAfter: "7") == 7)
        #expect(self.policy.delay(attempt: 3, retryAfter: " 2 ") == 2)
        #expect(self.policy.delay(attempt: 0, retryAfter: "1.5") == 1.5)
        // The server's word beats the back-off even when it asks for no wait at all.
        #expect(self.policy.delay(attempt: 4, retryAfter: "0") == 0)
    }

    @Test("Retry-After as an HTTP date waits until that moment")
    func retryAfterDate() {
        let delay = self.policy.delay(attempt: 0, retryAfter: Self.httpDate(Date().addingTimeInterval(10)))
        // The date has whole seconds, so up to one second is lost to rounding, plus the test's own time.
        #expect(delay > 8.5 && delay <= 10, "\(delay)")
    }

    @Test("Retry-After is capped at maximumRetryAfter, and a past date or negative number means no wait")
    func retryAfterBounds() {
        #expect(self.policy.delay(attempt: 0, retryAfter: "3600") == 120)
        var patient = self.policy
        patient.maximumRetryAfter = 30
        #expect(patient.delay(attempt: 0, retryAfter: "100") == 30)
        #expect(patient.delay(attempt: 0, retryAfter: Self.httpDate(Date().addingTimeInterval(3_600))) == 30)
        #expect(self.policy.delay(attempt: 0, retryAfter: "-5") == 0)
        #expect(self.policy.delay(attempt: 0, retryAfter: Self.httpDate(Date().addingTimeInterval(-60))) == 0)
    }

    @Test("Without Retry-After the wait lies between half and all of min(maximumDelay, baseDelay × 2^attempt)")
    func backOffBounds() {
        for attempt in 0...8 {
            let ceiling = min(30, 0.5 * pow(2, Double(attempt)))
            let delays = (0..<Self.samples).map { _ in self.policy.delay(attempt: attempt, retryAfter: nil) }
            #expect(
                delays.allSatisfy { $0 >= ceiling / 2 && $0 <= ceiling },
                "attempt \(attempt): \(delays.min()!)...\(delays.max()!)")
        }
    }

    @Test("However many retries came before, the wait never exceeds maximumDelay")
    func backOffIsCapped() {
        for attempt in [9, 40, 1_000, Int.max] {
            let delays = (0..<Self.samples).map { _ in self.policy.delay(attempt: attempt, retryAfter: nil) }
            #expect(
                delays.allSatisfy { $0 >= 15 && $0 <= 30 }, "attempt \(attempt): \(delays.min()!)...\(delays.max()!)")
        }
    }

    @Test("The back-off is jittered, so that many clients refused at once do not all come back at once")
    func backOffIsJittered() {
        let delays = (0..<Self.samples).map { _ in self.policy.delay(attempt: 2, retryAfter: nil) }
        #expect(Set(delays).count > Self.samples / 2)
        // Spread over the whole range [1, 2], not bunched at one end.
        #expect(delays.contains { $0 < 1.25 })
        #expect(delays.contains { $0 > 1.75 })
    }

    @Test("A Retry-After that is neither a number nor an HTTP date is ignored: the back-off applies")
    func garbageRetryAfter() {
        for header in ["soon", "", "10 seconds", "Tue, 99 Foo 2025 25:61:00 GMT", "2025-09-27T21:00:00Z"] {
            let delays = (0..<200).map { _ in self.policy.delay(attempt: 1, retryAfter: header) }
            #expect(
                delays.allSatisfy { $0 >= 0.5 && $0 <= 1 },
                "\(header.debugDescription): \(delays.min()!)...\(delays.max()!)")
        }
    }
}

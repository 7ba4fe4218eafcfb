import Foundation
import IngestCore
import Testing

@testable import IngestTransport

@Suite struct CircuitBreakerTests {
    let refused = TransportError(code: 7, message: "Couldn't connect to server")

    @Test(
        "Opens once the server has answered no one for the whole time, then fails every request at once, naming the server"
    )
    func opensAfterSilence() async throws {
        let breaker = CircuitBreaker(host: "http://127.0.0.1:9", giveUpAfter: 0.3)
        #expect(breaker.unanswered(self.refused, tryStartedAt: .now) == .probe)
        try breaker.check()
        try await Task.sleep(for: .milliseconds(350))
        #expect(breaker.unanswered(self.refused, tryStartedAt: .now) == .open)
        #expect(breaker.isOpen)
        do {
            try breaker.check()
            Issue.record("an open breaker let a request through")
        } catch {
            #expect(error.code == .serverUnreachable)
            #expect(
                error.message
                    == "the server http://127.0.0.1:9 did not answer for 0.3 s (Couldn't connect to server; 2 tries)")
        }
    }

    @Test("A failure is the request's own when a try sent after it was answered; a probe when none was")
    func probeOrRetry() {
        let breaker = CircuitBreaker(host: "h", giveUpAfter: 30)
        let early = ContinuousClock.now
        let later = early.advanced(by: .milliseconds(10))
        breaker.answered(tryStartedAt: later)
        // Sent before the answered try: the answer says nothing about the server since.
        #expect(breaker.unanswered(self.refused, tryStartedAt: later.advanced(by: .milliseconds(1))) == .probe)
        // An answer to a try sent after this one: the server is there; this failure is this request's.
        breaker.answered(tryStartedAt: later.advanced(by: .milliseconds(5)))
        #expect(breaker.unanswered(self.refused, tryStartedAt: early) == .retry)
        #expect(!breaker.isOpen)
    }

    @Test("Only errors where nothing came back count: HTTP answers and refused requests do not")
    func whatCountsAsNoAnswer() {
        for code in [6, 7, 28, 52, 55, 56] {
            #expect(CircuitBreaker.isUnanswered(TransportError(code: code, message: "")))
        }
        for code in [HTTPTransport.refusedCode, HTTPTransport.abandonedCode, 26, 35] {
            #expect(!CircuitBreaker.isUnanswered(TransportError(code: code, message: "")))
        }
    }
}

import Foundation
import IngestCore
import Testing

@testable import IngestTransport

@Suite struct CircuitBreakerTests {
    let refused = TransportError(code: 7, message: "Couldn't connect to server")

    @Test("Opens only after the server has answered no one for the whole time, then fails every request at once, naming the server")
    func opensAfterSilence() async throws {
        let breaker = CircuitBreaker(host: "http://127.0.0.1:9", giveUpAfter: 0.3)
        #expect(breaker.unanswered(self.refused))
        try breaker.check()
        try await Task.sleep(for: .milliseconds(350))
        #expect(!breaker.unanswered(self.refused))
        #expect(breaker.isOpen)
        #expect(throws: IngestError.self) { try breaker.check() }
        do {
            try breaker.check()
        } catch {
            #expect(error.code == .serverUnreachable)
            #expect(error.message == "the server http://127.0.0.1:9 did not answer for 0.3 s (Couldn't connect to server; 2 tries)")
        }
    }

    @Test("Any answer closes the silence: a request timing out while others are answered is not the server's problem")
    func anAnswerResets() async throws {
        let breaker = CircuitBreaker(host: "h", giveUpAfter: 0.3)
        let since = ContinuousClock.now
        #expect(breaker.unanswered(self.refused))
        #expect(breaker.silent(since: since))
        breaker.answered()
        #expect(!breaker.silent(since: since), "an answer after the failure")
        try await Task.sleep(for: .milliseconds(350))
        // The silence starts again from this failure, not the first one.
        #expect(breaker.unanswered(self.refused))
        #expect(!breaker.isOpen)
    }

    @Test("Only errors where nothing came back count: HTTP answers and refused requests do not")
    func whatCountsAsNoAnswer() {
        for code in [6, 7, 28, 52, 55, 56] { #expect(CircuitBreaker.isUnanswered(TransportError(code: code, message: ""))) }
        for code in [HTTPTransport.refusedCode, HTTPTransport.abandonedCode, 26, 35] {
            #expect(!CircuitBreaker.isUnanswered(TransportError(code: code, message: "")))
        }
    }
}

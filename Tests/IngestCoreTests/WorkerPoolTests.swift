import Foundation
import IngestCore
import Testing

@Suite struct WorkerPoolTests {
    final class Payload: Sendable {}

    @Test("A finished job keeps nothing it captured alive (a file's bytes must not pile up)")
    func finishedJobsReleaseWhatTheyCaptured() async throws {
        let pool = WorkerPool(name: "test", threads: 2)
        defer { pool.shutdown() }
        weak var watched: Payload?
        for _ in 0..<3 {
            let payload = Payload()
            watched = payload
            try await pool.run { () throws(IngestError) -> Int in withExtendedLifetime(payload) { 1 } }
        }
        // Give the worker a moment to drop its reference after resuming us.
        let deadline = ContinuousClock.now + .seconds(2)
        while watched != nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(watched == nil)
    }

    @Test func resultsAndErrorsComeBack() async {
        let pool = WorkerPool(name: "test", threads: 2)
        defer { pool.shutdown() }
        let sum = await withTaskGroup(of: Int.self) { group in
            for value in 1...100 {
                group.addTask { (try? await pool.run { () throws(IngestError) -> Int in value }) ?? 0 }
            }
            return await group.reduce(0, +)
        }
        #expect(sum == 5_050)
        await #expect(throws: IngestError.self) {
            try await pool.run { () throws(IngestError) -> Int in throw IngestError(.decodeFailed, "no") }
        }
    }
}

import Foundation
import IngestCore
import Testing

@Suite struct LockedTests {
    @Test("Increments from eight threads at once are none of them lost")
    func concurrentUpdatesAreNotLost() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test("What the body throws reaches the caller, typed, and the lock is free again")
    func errorsPassThrough() {
        struct Refused: Error, Equatable {}
        let value = Locked([1, 2])
        #expect(throws: Refused()) {
            try value.withLock { (numbers: inout [Int]) throws(Refused) in
                numbers.append(3)
                throw Refused()
            }
        }
        #expect(value.withLock { $0 } == [1, 2, 3])
    }
}

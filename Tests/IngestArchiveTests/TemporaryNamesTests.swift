import Dispatch
import IngestCore
import Testing

@testable import IngestArchive

@Suite struct TemporaryNamesTests {
    @Test("Names drawn on eight threads at once, and by two archives, are all different file names")
    func namesNeverRepeat() {
        let first = TemporaryNames()
        let second = TemporaryNames()
        let drawn = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let names = (0..<1_000).map { _ in (thread % 2 == 0 ? first : second).next() }
            drawn.withLock { $0 += names }
        }
        let names = drawn.withLock { $0 }
        #expect(names.count == 8_000)
        #expect(Set(names).count == 8_000)
        #expect(names.allSatisfy { !$0.isEmpty && !$0.contains("/") && $0 != "." && $0 != ".." })
    }
}

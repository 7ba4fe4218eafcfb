import Foundation
import IngestCore
import IngestTesting
import Testing

@Suite struct RunLockTests {
    @Test("Who holds a lock is found without taking it: no one without a file or a holder, the run while held")
    func holder() async throws {
        let folder = TemporaryFolder("run-lock")
        let path = RunLock.path(guarding: folder.appending("catalog.sqlite").path)
        #expect(path.hasSuffix("/catalog.sqlite.lock"))
        #expect(RunLock.holder(of: path) == nil)
        do {
            let lock = try await RunLock(path: path, what: "the catalog", wait: false)
            let holder = try #require(RunLock.holder(of: path))
            #expect(holder.pid == getpid())
            #expect(holder.description.hasPrefix("the photoingest run with pid \(getpid()), started 20"))
            // Looking does not take it: another run still cannot.
            await #expect(throws: (any Error).self) { _ = try await RunLock(path: path, what: "it", wait: false) }
            withExtendedLifetime(lock) {}
        }
        // Let go of (the file stays): no one holds it.
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(RunLock.holder(of: path) == nil)
    }
}

import Foundation
import IngestCore
import IngestTesting
import SystemPackage
import Testing

@testable import IngestArchive

@Suite struct SyncGroupTests {
    let folder = TemporaryFolder("sync-group")

    /// A new file of `size` bytes, open for writing, not synced.
    func written(_ name: String, size: Int = 64 << 10) throws -> OpenFile {
        let file = try OpenFile(self.folder.appending(name).path, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o644)
        try file.writeAll([UInt8](repeating: UInt8(name.utf8.count), count: size))
        return file
    }

    /// Runs `body` on `count` threads at once and waits for all of them.
    func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchGroup()
        for index in 0..<count {
            done.enter()
            Thread {
                body(index)
                done.leave()
            }.start()
        }
        done.wait()
    }

    /// Holds the first group's sync until `count` callers wait behind it (at most 30 s).
    static func holdFirstGroup(until count: Int) -> @Sendable (SyncGroup, Int) -> Void {
        { group, number in
            guard number == 1 else { return }
            let deadline = Date().addingTimeInterval(30)
            while group.waitingCount < count, Date() < deadline { usleep(1000) }
        }
    }

    @Test("Callers that arrive while a group syncs are synced together by one of them, each told its own result")
    func callersArrivingDuringASyncFormTheNextGroup() throws {
        let arrivals = 7
        // The first caller's group holds it alone; its sync waits until the others wait behind it.
        let syncGroup = SyncGroup(beforeEachGroup: Self.holdFirstGroup(until: arrivals))
        let files = try (0...arrivals).map { try self.written("file-\($0)") }
        defer { for file in files { file.close() } }
        let results = Locked<[Int: Bool]>([:])
        let first = try self.written("first")
        defer { first.close() }
        self.onThreads(arrivals + 1) { index in
            if index > 0 { while syncGroup.groupsSynced == 0 { usleep(100) } }
            let synced = (try? syncGroup.sync(index == 0 ? [first] : [files[index]])) != nil
            results.withLock { $0[index] = synced }
        }
        #expect(results.withLock { $0 }.values.allSatisfy { $0 })
        #expect(results.withLock { $0.count } == arrivals + 1)
        #expect(syncGroup.groupsSynced == 2)
    }

    @Test("A file that cannot be synced fails its own caller, not the others of its group")
    func aFailureStaysWithItsCaller() throws {
        let syncGroup = SyncGroup(beforeEachGroup: Self.holdFirstGroup(until: 2))
        let first = try self.written("first")
        let good = try self.written("good")
        defer {
            first.close()
            good.close()
        }
        // A descriptor that names no open file.
        let closed = OpenFile(descriptor: -1)
        let errors = Locked<[Int: Errno?]>([:])
        self.onThreads(3) { index in
            if index > 0 { while syncGroup.groupsSynced == 0 { usleep(100) } }
            do throws(Errno) {
                try syncGroup.sync([[first], [good], [closed]][index])
                errors.withLock { $0[index] = .some(nil) }
            } catch {
                errors.withLock { $0[index] = error }
            }
        }
        let found = errors.withLock { $0 }
        #expect(found[0] == .some(nil))
        #expect(found[1] == .some(nil))
        #expect(found[2] == .some(.badFileDescriptor))
        #expect(syncGroup.groupsSynced == 2)
    }
}

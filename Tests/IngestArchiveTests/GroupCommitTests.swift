import Foundation
import IngestCore
import Testing

@testable import IngestArchive

@Suite struct GroupCommitTests {
    /// An entry that remembers the group it was committed in.
    final class Entry {
        let name: Int
        var group: Int?

        init(_ name: Int) { self.name = name }
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

    @Test("Callers that arrive while a group commits are committed together by one of them, after it")
    func callersArrivingDuringACommitFormTheNextGroup() {
        let arrivals = 7
        let sizes = Locked<[Int]>([])
        let groups = Locked(0)
        // The first group holds the first caller alone; its commit waits until the others wait behind it.
        let commits = GroupCommit<Entry>(
            beforeEachGroup: { commits, number in
                guard number == 1 else { return }
                let deadline = Date().addingTimeInterval(30)
                while commits.waitingCount < arrivals, Date() < deadline { usleep(1000) }
            },
            commit: { group in
                let number = groups.withLock {
                    $0 += 1
                    return $0
                }
                sizes.withLock { $0.append(group.count) }
                for entry in group { entry.group = number }
            })
        let committedIn = Locked<[Int: Int]>([:])
        self.onThreads(arrivals + 1) { index in
            if index > 0 { while commits.groupsCommitted == 0 { usleep(100) } }
            let entry = Entry(index)
            commits.commit(entry)
            // Back from `commit` only once its group's commit ended, which set this.
            committedIn.withLock { $0[index] = entry.group }
        }
        #expect(sizes.withLock { $0 } == [1, arrivals])
        #expect(
            committedIn.withLock { $0 }
                == Dictionary(uniqueKeysWithValues: (0...arrivals).map { ($0, $0 == 0 ? 1 : 2) }))
        #expect(commits.groupsCommitted == 2)
    }

    @Test("One caller alone commits alone, at once")
    func aLoneCallerCommitsItsOwnEntry() {
        let commits = GroupCommit<Entry> { group in for entry in group { entry.group = group.count } }
        let entries = (0..<3).map(Entry.init)
        for entry in entries { commits.commit(entry) }
        #expect(entries.map(\.group) == [1, 1, 1])
        #expect(commits.groupsCommitted == 3)
    }
}

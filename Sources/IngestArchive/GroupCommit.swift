import Foundation

/// Runs the commits of callers that arrive together as one: the caller that finds no commit under
/// way commits every entry handed in so far, the others wait for it.
///
/// What makes a store durable (a sync of its files, of the folders they are renamed into, of the
/// index) costs a journal commit and a flush of the disk's cache whatever the number of files it
/// covers, so the stores running at once pay for one. Callers that arrive while a commit runs are
/// the next group. A caller returns only once a commit that began after it handed its entry in
/// has ended: nothing is called durable before it is.
final class GroupCommit<Entry: AnyObject>: @unchecked Sendable {
    // @unchecked: `waiting`, `committing`, `groups` and the done flags are only touched with
    // `condition` held; an entry is handed from its caller to the committing one and back, each
    // hand-over ordered by `condition`.
    private let condition = NSCondition()
    private var waiting: [Entry] = []
    private var done: Set<ObjectIdentifier> = []
    private var committing = false
    private var groups = 0
    private let commit: @Sendable ([Entry]) -> Void
    /// Called by the caller that commits a group, with the group's number, before it commits: a
    /// test's way to let others arrive.
    private let beforeEachGroup: @Sendable (GroupCommit, Int) -> Void

    /// `commit` makes a group's entries durable and leaves in each what became of it. Blocking.
    init(
        beforeEachGroup: @escaping @Sendable (GroupCommit, Int) -> Void = { _, _ in },
        commit: @escaping @Sendable ([Entry]) -> Void
    ) {
        self.commit = commit
        self.beforeEachGroup = beforeEachGroup
    }

    /// How many callers wait for a group to take them, for tests.
    var waitingCount: Int {
        self.condition.lock()
        defer { self.condition.unlock() }
        return self.waiting.count
    }

    /// How many groups were committed or taken so far, for tests.
    var groupsCommitted: Int {
        self.condition.lock()
        defer { self.condition.unlock() }
        return self.groups
    }

    /// Returns once `entry` was committed with its group. Blocking.
    func commit(_ entry: Entry) {
        let key = ObjectIdentifier(entry)
        self.condition.lock()
        self.waiting.append(entry)
        while !self.done.contains(key) {
            if self.committing {
                self.condition.wait()
                continue
            }
            self.committing = true
            let group = self.waiting
            self.waiting = []
            self.groups += 1
            let number = self.groups
            self.condition.unlock()
            self.beforeEachGroup(self, number)
            self.commit(group)
            self.condition.lock()
            for committed in group { self.done.insert(ObjectIdentifier(committed)) }
            self.committing = false
            self.condition.broadcast()
        }
        self.done.remove(key)
        self.condition.unlock()
    }
}

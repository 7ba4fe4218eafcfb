import CFileSystemShim
import Foundation
import IngestCore
import SystemPackage

/// Makes the files of stores running at once durable together: one of the callers syncs the files
/// of every caller waiting, the others wait for it.
///
/// A sync of a new file waits for its data and for a journal commit that records where the data
/// is. Synced one by one, each file pays a commit and a cache flush of the disk. Here the caller
/// that finds no sync under way takes every file handed in so far, starts the writeback of all of
/// them, then waits on each: the first wait commits the journal for all, and the others find
/// their data on the disk already. Callers that arrive meanwhile are the next group. A caller
/// returns only once a sync that began after it handed its files in has ended, so nothing is
/// called durable before it is.
final class SyncGroup: @unchecked Sendable {
    // @unchecked: `waiting` and `syncing` are only touched with `condition` held; a request's
    // `failure` is written by the one syncing it and read by its caller after `done`, both ordered
    // by `condition`.
    private let condition = NSCondition()
    private var waiting: [Request] = []
    private var syncing = false
    private var groups = 0
    /// Called by the caller that syncs a group, with the group's number, before it syncs: a test's
    /// way to let others arrive.
    private let beforeEachGroup: @Sendable (SyncGroup, Int) -> Void

    init(beforeEachGroup: @escaping @Sendable (SyncGroup, Int) -> Void = { _, _ in }) {
        self.beforeEachGroup = beforeEachGroup
    }

    /// How many callers wait for a group to take them, for tests.
    var waitingCount: Int {
        self.condition.lock()
        defer { self.condition.unlock() }
        return self.waiting.count
    }

    /// How many groups were synced so far, for tests.
    var groupsSynced: Int {
        self.condition.lock()
        defer { self.condition.unlock() }
        return self.groups
    }

    private final class Request {
        let files: [OpenFile]
        var failure: Errno?
        var done = false

        init(_ files: [OpenFile]) { self.files = files }
    }

    /// Returns once the data of every one of `files` is on the disk; throws the first error a
    /// sync of one of them gave. Blocking.
    func sync(_ files: [OpenFile]) throws(Errno) {
        guard !files.isEmpty else { return }
        let request = Request(files)
        self.condition.lock()
        self.waiting.append(request)
        while !request.done {
            if self.syncing {
                self.condition.wait()
                continue
            }
            self.syncing = true
            let group = self.waiting
            self.waiting = []
            self.groups += 1
            let number = self.groups
            self.condition.unlock()
            self.beforeEachGroup(self, number)
            Self.sync(group)
            self.condition.lock()
            for synced in group { synced.done = true }
            self.syncing = false
            self.condition.broadcast()
        }
        self.condition.unlock()
        if let failure = request.failure { throw failure }
    }

    /// Starts the writeback of every file of `group`, then waits for each.
    private static func sync(_ group: [Request]) {
        for request in group {
            // Only a hint: a failure here shows again in the wait below, which is what counts.
            for file in request.files { _ = ingest_start_writeback(file.raw) }
        }
        for request in group {
            for file in request.files {
                while fdatasync(file.raw) != 0 {
                    guard errno == EINTR else {
                        if request.failure == nil { request.failure = Errno(rawValue: errno) }
                        break
                    }
                }
            }
        }
    }
}

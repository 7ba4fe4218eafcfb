import AsyncAlgorithms
import IngestCore

/// The batches a watch made of the files that arrived, on their way to the pipeline.
///
/// The watch puts and never waits, so that it goes on reading the kernel's events while the
/// pipeline is busy: a folder copied in while uploads queue is watched as it appears, not once
/// the pipeline takes the next batch (by then its first files were written unwatched, and the
/// kernel's queue may have overflowed). What waits here is a list of paths, small beside the
/// files themselves.
package final class WatchOutbox: Sendable {
    private struct State {
        var batches: [DiscoveryBatch] = []
        var waiter: CheckedContinuation<DiscoveryBatch?, Never>?
        var finished = false
    }

    private let state = Locked(State())

    /// Adds `batch`, or hands it to the sender waiting for one.
    package func put(_ batch: DiscoveryBatch) {
        let waiter = self.state.withLock { state -> CheckedContinuation<DiscoveryBatch?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.batches.append(batch)
            return nil
        }
        waiter?.resume(returning: batch)
    }

    /// No batch comes after those put: ``next()`` answers nil once they are taken.
    package func finish() {
        let waiter = self.state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// How many batches wait.
    package var count: Int { self.state.withLock { $0.batches.count } }

    /// The oldest batch, waiting for one; nil once finished and empty.
    package func next() async -> DiscoveryBatch? {
        await withCheckedContinuation { continuation in
            let ready = self.state.withLock { state -> DiscoveryBatch?? in
                if !state.batches.isEmpty { return .some(state.batches.removeFirst()) }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The oldest batch if one waits, without waiting.
    package func take() -> DiscoveryBatch? {
        self.state.withLock { state in state.batches.isEmpty ? nil : state.batches.removeFirst() }
    }

    package init() {}
}

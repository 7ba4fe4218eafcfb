import Foundation
import IngestCore

/// A fixed set of threads for blocking work (libvips, reads, fsync), bridged to async code.
///
/// Blocking calls on Swift's cooperative pool would starve every other task on a machine with
/// few cores; here they wait in a queue instead, and the caller's task suspends.
public final class WorkerPool: @unchecked Sendable {
    // @unchecked: `queue` and `stopped` are only touched with `condition` held.
    private let condition = NSCondition()
    /// Jobs waiting, from `head` on; a taken job's slot is emptied at once, so that nothing it
    /// captured (a file's bytes) outlives it while the array waits to be compacted.
    private var queue: [(@Sendable () -> Void)?] = []
    private var head = 0
    private var stopped = false
    public let threads: Int

    public init(name: String, threads: Int) {
        self.threads = max(1, threads)
        for index in 0..<self.threads {
            let thread = Thread { [self] in self.work() }
            thread.name = "\(name)-\(index)"
            // libvips and libjpeg use deep stacks on some images.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Runs `body` on one of the pool's threads and returns its result.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws(IngestError) -> T) async throws(IngestError) -> T
    {
        let result: Result<T, IngestError> = await withCheckedContinuation { continuation in
            self.enqueue {
                continuation.resume(returning: Result { () throws(IngestError) -> T in try body() })
            }
        }
        return try result.get()
    }

    /// Lets the threads end once the queue is empty.
    public func shutdown() {
        self.condition.lock()
        self.stopped = true
        self.condition.broadcast()
        self.condition.unlock()
    }

    private func enqueue(_ job: @escaping @Sendable () -> Void) {
        self.condition.lock()
        self.queue.append(job)
        self.condition.signal()
        self.condition.unlock()
    }

    private func work() {
        while true {
            self.condition.lock()
            while self.head == self.queue.count && !self.stopped { self.condition.wait() }
            if self.head == self.queue.count {
                self.condition.unlock()
                return
            }
            let job = self.queue[self.head]
            self.queue[self.head] = nil
            self.head += 1
            if self.head == self.queue.count {
                self.queue.removeAll(keepingCapacity: true)
                self.head = 0
            } else if self.head > 1024 && self.head * 2 > self.queue.count {
                self.queue.removeFirst(self.head)
                self.head = 0
            }
            self.condition.unlock()
            job?()
        }
    }
}

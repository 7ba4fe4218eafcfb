import Foundation

/// A value behind a lock that ThreadSanitizer can see.
///
/// `Synchronization.Mutex` on Linux hands a contended lock over inside the kernel
/// (`FUTEX_LOCK_PI`), where ThreadSanitizer sees no acquire, so it reported every contended
/// `withLock` as a race on the value it guards (docs/reliability.md shows a program that does
/// this with nothing else in it). This lock is a pthread mutex, which ThreadSanitizer intercepts:
/// a TSan run reports the races there are, not the ones its blind spot makes up.
public final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, alone.
    public func withLock<Result, Failure>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        self.lock.lock()
        defer { self.lock.unlock() }
        return try body(&self.value)
    }
}

// @unchecked: `value` is only touched with `lock` held; shared only when what it holds may be.
extension Locked: @unchecked Sendable where Value: Sendable {}

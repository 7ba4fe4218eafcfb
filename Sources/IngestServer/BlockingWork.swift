import Dispatch
import IngestCore

/// Runs blocking work (archive writes with fsync and their SQLite transaction, libvips decoding)
/// on threads of its own, so that the threads of Swift's cooperative pool, which serve every
/// request and GRDB's async reads, never wait on it.
enum BlockingWork {
    private static let queue = DispatchQueue(label: "photoshare-server.blocking", attributes: .concurrent)

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            self.queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}

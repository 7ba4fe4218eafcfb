import IngestCore
import Logging

/// One step of the pipeline: a function from input to output, plus its errors.
///
/// Stages are values; whatever they hold is shared by every file. Where a stage does blocking
/// work it says on which ``WorkerPool`` of the context, so that the limits stay in ``Limits``.
public protocol Stage: Sendable {
    associatedtype Input: Sendable
    associatedtype Output: Sendable
    func process(_ input: Input, context: StageContext) async throws(IngestError) -> Output
}

/// What every stage may use: the logger, the limits, and the worker pools they size.
public struct StageContext: Sendable {
    public var logger: Logger
    public var limits: Limits
    /// Decoding and thumbnails: `limits.cpuWorkers` threads.
    public var cpu: WorkerPool
    /// Reading, hashing and writing files: `limits.ioWorkers` threads.
    public var io: WorkerPool

    public init(logger: Logger, limits: Limits) {
        self.logger = logger
        self.limits = limits
        self.cpu = WorkerPool(name: "cpu", threads: limits.cpuWorkers)
        self.io = WorkerPool(name: "io", threads: limits.ioWorkers)
    }

    public func shutdown() {
        self.cpu.shutdown()
        self.io.shutdown()
    }
}

import Dispatch
import Foundation
import IngestPipeline
import Synchronization

/// Ctrl-C (or SIGTERM): the first stops discovery, lets the files in flight finish (`onStop` bounds the
/// uploads in flight by --stall-timeout) and commits; the second exits at once (the catalog's
/// last committed batch stays intact).
///
/// A reader of standard output that goes away (`--report - | head`) stops the run the same way,
/// instead of SIGPIPE killing it with files half done.
enum Interrupts {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    nonisolated(unsafe) private static var stopOnce: (@Sendable () -> Void)?
    private static let readerGone = Atomic(false)

    /// Standard output lost its reader: writes to it fail with EPIPE from now on, and a SIGPIPE
    /// would end the process wherever it stands.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// The reader of standard output has gone: the run stops as after the first Ctrl-C.
    static func outputReaderGone() {
        guard !Self.readerGone.exchange(true, ordering: .relaxed) else { return }
        FileHandle.standardError.write(
            Data("\nStandard output was closed: stopping after the files in flight…\n".utf8))
        Self.stopOnce?()
    }

    static func install(_ stop: StopRequest, onStop: @escaping @Sendable () -> Void = {}) {
        // The first Ctrl-C's stop, and a closed standard output's.
        let stopAfterInFlight: @Sendable () -> Void = {
            stop.request()
            onStop()
        }
        Self.stopOnce = stopAfterInFlight
        // SIGTERM (systemd's stop, `kill`) as the first Ctrl-C: a service ends as a run does.
        self.sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.isRequestedByUser {
                    FileHandle.standardError.write(Data("\nStopped.\n".utf8))
                    _exit(130)
                }
                stopAfterInFlight()
                FileHandle.standardError.write(
                    Data("\nStopping after the files in flight (Ctrl-C again to stop at once)…\n".utf8))
            }
            source.resume()
            return source
        }
    }
}

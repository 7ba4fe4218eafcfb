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
    nonisolated(unsafe) private static var stopHandled = false
    nonisolated(unsafe) private static var hangUpHandled = false
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

    /// What the signals act on now: a watch that starts again installs its next run's.
    private struct Handlers: Sendable {
        var stop: StopRequest
        var stopAfterInFlight: @Sendable () -> Void
        var onHangUp: (@Sendable () -> Void)?
    }

    private static let handlers = Mutex<Handlers?>(nil)

    /// Handles Ctrl-C and SIGTERM for `stop`, and SIGHUP with `onHangUp` when given (a watch
    /// reads its settings again; a run keeps SIGHUP's default, ending with its terminal). A later install replaces an earlier one's handlers; the
    /// signal sources are made once (libdispatch does not deliver to a second source made for a
    /// signal whose first was cancelled).
    static func install(
        _ stop: StopRequest, onStop: @escaping @Sendable () -> Void = {},
        onHangUp: (@Sendable () -> Void)? = nil
    ) {
        // The first Ctrl-C's stop, and a closed standard output's.
        let stopAfterInFlight: @Sendable () -> Void = {
            stop.request()
            onStop()
        }
        Self.stopOnce = stopAfterInFlight
        Self.handlers.withLock { $0 = Handlers(stop: stop, stopAfterInFlight: stopAfterInFlight, onHangUp: onHangUp) }
        if onHangUp != nil && !self.hangUpHandled {
            self.hangUpHandled = true
            signal(SIGHUP, SIG_IGN)
            let hangUp = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
            hangUp.setEventHandler { Self.handlers.withLock({ $0 })?.onHangUp?() }
            hangUp.resume()
            self.sources.append(hangUp)
        }
        guard !self.stopHandled else { return }
        self.stopHandled = true
        // SIGTERM (systemd's stop, `kill`) as the first Ctrl-C: a service ends as a run does.
        self.sources += [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard let handlers = Self.handlers.withLock({ $0 }) else { return }
                if handlers.stop.isRequestedByUser {
                    FileHandle.standardError.write(Data("\nStopped.\n".utf8))
                    _exit(130)
                }
                handlers.stopAfterInFlight()
                FileHandle.standardError.write(
                    Data("\nStopping after the files in flight (Ctrl-C again to stop at once)…\n".utf8))
            }
            source.resume()
            return source
        }
    }
}

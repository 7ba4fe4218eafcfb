import Dispatch
import Foundation
import IngestPipeline

/// Ctrl-C: the first stops discovery, lets the files in flight finish (`onStop` bounds the
/// uploads in flight by --stall-timeout) and commits; the second exits at once (the catalog's
/// last committed batch stays intact).
enum Interrupts {
    nonisolated(unsafe) private static var source: DispatchSourceSignal?

    static func install(_ stop: StopRequest, onStop: @escaping @Sendable () -> Void = {}) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if stop.isRequestedByUser {
                FileHandle.standardError.write(Data("\nStopped.\n".utf8))
                _exit(130)
            }
            stop.request()
            onStop()
            FileHandle.standardError.write(
                Data("\nStopping after the files in flight (Ctrl-C again to stop at once)…\n".utf8))
        }
        source.resume()
        self.source = source
    }
}

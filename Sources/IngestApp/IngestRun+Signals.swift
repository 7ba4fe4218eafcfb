import Foundation
import IngestPipeline

extension IngestRun {
    /// The run's stop and restart requests, wired to the signals: Ctrl-C and SIGTERM stop it (the
    /// destination lets its uploads in flight finish), SIGHUP starts a watch again with its
    /// settings read anew, and `--max-duration` stops it at its deadline.
    func signals(target: RunTarget, started: Date) -> RunSignals {
        let stop = StopRequest()
        let restart = WatchRestart()
        // SIGHUP, for a watch: the files in flight finish, then it starts again with the settings read anew.
        var hangUp: (@Sendable () -> Void)?
        if self.watching {
            hangUp = { @Sendable in
                restart.request(.reload)
                stop.request(byUser: false)
            }
        }
        Interrupts.install(stop, onStop: target.finishInFlight, onHangUp: hangUp)
        return RunSignals(stop: stop, restart: restart, deadline: self.deadline(stop, started: started))
    }

    /// `--max-duration`: a task that stops the run once it has lasted that long, counted from
    /// `started`. The stop is not the user's: uploads in flight are not cut, they finish. Its
    /// value says whether the deadline passed (false once cancelled first). A watch has none.
    func deadline(_ stop: StopRequest, started: Date) -> Task<Bool, Never>? {
        guard let seconds = self.settings.maxDuration, !self.watching else { return nil }
        let remaining = max(0, Double(seconds) - Date().timeIntervalSince(started))
        return Task {
            do {
                try await Task.sleep(for: .seconds(remaining))
            } catch {
                return false
            }
            stop.request(byUser: false)
            return true
        }
    }
}

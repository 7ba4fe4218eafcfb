import Foundation
import IngestPipeline

extension IngestRun {
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

import Foundation
import IngestCore
import IngestPipeline
import Synchronization

/// The live progress line on a terminal: files done of total, photos/s, MB/s, uploads sending and queued,
/// ETA and the current file's name, redrawn at most 10 times a second on standard error.
public final class ProgressLine: Sendable {
    private let isEnabled: Bool
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    /// Shown before the counts, e.g. `event 2 of 5: Birthday Party`.
    private let heading: String?
    /// What is on the terminal: the line is drawn from the pipeline's observer while a watch's
    /// notices are printed from its own task, so each writes under the lock.
    private let state = Mutex(State())
    static let interval: Duration = .milliseconds(100)

    private struct State {
        var lastDraw: ContinuousClock.Instant?
        var current = ""
        var drawn = false
    }

    /// Where the line is drawn: standard error.
    private let output: FileHandle

    /// Enabled only when `output` (standard error) is a terminal and the user did not ask for quiet.
    public init(quiet: Bool, heading: String? = nil, output: FileHandle = .standardError) {
        self.isEnabled = !quiet && isatty(output.fileDescriptor) == 1
        self.started = self.clock.now
        self.heading = heading
        self.output = output
    }

    public func started(_ path: String) {
        self.state.withLock { $0.current = path }
    }

    public func update(_ progress: RunProgress) {
        guard self.isEnabled else { return }
        let now = self.clock.now
        self.state.withLock { state in
            if let last = state.lastDraw, now - last < Self.interval { return }
            state.lastDraw = now
            let elapsed = max((now - self.started).seconds, 0.001)
            let width = Self.terminalWidth()
            let prefix = self.heading.map { Self.truncateMiddle($0, to: width / 3) + "  " } ?? ""
            let line =
                prefix + Self.render(progress, elapsed: elapsed, current: state.current, width: width - prefix.count)
            self.output.write(Data(("\r\u{1B}[2K" + line).utf8))
            state.drawn = true
        }
    }

    /// Erases the line, before the summary is printed.
    public func clear() {
        self.printing {}
    }

    /// Runs `write` (which prints a line of its own) with the progress line erased first, so that
    /// the two never share a terminal line; the next update draws it again.
    public func printing(_ write: () -> Void) {
        self.state.withLock { state in
            if self.isEnabled, state.drawn {
                self.output.write(Data("\r\u{1B}[2K".utf8))
                state.drawn = false
                // Drawn again at the next update, not a tenth of a second later.
                state.lastDraw = nil
            }
            write()
        }
    }

    /// The text of the line. Photos/s and the ETA are about the files that needed work (not those
    /// skipped as unchanged); uploads sending and queued are shown when the destination uploads.
    public static func render(_ progress: RunProgress, elapsed: Double, current: String, width: Int) -> String {
        let total = progress.discoveryDone ? "\(progress.discovered)" : "\(progress.discovered)+"
        let rate = Double(progress.done) / elapsed
        let photosPerSecond = Double(progress.done - progress.unchanged) / elapsed
        let megabytesPerSecond = Double(progress.bytesRead) / 1e6 / elapsed
        var eta = "--:--"
        if progress.discoveryDone, rate > 0 {
            let remaining = Int((Double(progress.discovered - progress.done) / rate).rounded())
            eta = String(format: "%d:%02d", remaining / 60, remaining % 60)
        }
        let uploads = progress.uploads.map { "\($0.sending) uploading, \($0.queued) queued  " } ?? ""
        let head = String(
            format: "%d/%@ files  %.1f photos/s  %.1f MB/s  %@ETA %@  ", progress.done, total, photosPerSecond,
            megabytesPerSecond, uploads, eta)
        let name = PathBytes.printable(String(current.split(separator: "/").last ?? ""))
        return head + Self.truncateMiddle(name, to: max(0, width - head.count - 1))
    }

    /// Shortens `text` to `width` characters by replacing its middle with `…`.
    static func truncateMiddle(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        let keep = width - 1
        let front = (keep + 1) / 2
        return String(text.prefix(front)) + "…" + String(text.suffix(keep - front))
    }

    static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}

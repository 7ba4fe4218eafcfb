import Foundation
import IngestCore
import IngestPipeline

/// The live progress line on a terminal: files done of total, photos/s, MB/s, uploads sending and queued,
/// ETA and the current file's name, redrawn at most 10 times a second on standard error.
public final class ProgressLine {
    private let isEnabled: Bool
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant?
    private var current = ""
    private var drawn = false
    /// Shown before the counts, e.g. `event 2 of 5: Birthday Party`.
    private let heading: String?
    static let interval: Duration = .milliseconds(100)

    /// Enabled only when standard error is a terminal and the user did not ask for quiet.
    public init(quiet: Bool, heading: String? = nil) {
        self.isEnabled = !quiet && isatty(STDERR_FILENO) == 1
        self.started = self.clock.now
        self.heading = heading
    }

    public func started(_ path: String) {
        self.current = path
    }

    public func update(_ progress: RunProgress) {
        guard self.isEnabled else { return }
        let now = self.clock.now
        if let last = self.lastDraw, now - last < Self.interval { return }
        self.lastDraw = now
        let elapsed = max((now - self.started).seconds, 0.001)
        let width = Self.terminalWidth()
        let prefix = self.heading.map { Self.truncateMiddle($0, to: width / 3) + "  " } ?? ""
        let line = prefix + Self.render(progress, elapsed: elapsed, current: self.current, width: width - prefix.count)
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
        self.drawn = true
    }

    /// Erases the line, before the summary is printed.
    public func clear() {
        guard self.isEnabled, self.drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        self.drawn = false
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

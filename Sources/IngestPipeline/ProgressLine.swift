import Foundation
import IngestCore

/// The live progress line on a terminal: files done of total, photos/s, MB/s, ETA and the
/// current file's name, redrawn at most 10 times a second on standard error.
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

    public func update(done: Int, discovered: Int, discoveryDone: Bool, bytes: Int64, workDone: Int) {
        guard self.isEnabled else { return }
        let now = self.clock.now
        if let last = self.lastDraw, now - last < Self.interval { return }
        self.lastDraw = now
        let elapsed = max((now - self.started).seconds, 0.001)
        let width = Self.terminalWidth()
        let prefix = self.heading.map { Self.truncateMiddle($0, to: width / 3) + "  " } ?? ""
        let line = prefix + Self.render(
            done: done, discovered: discovered, discoveryDone: discoveryDone, elapsed: elapsed,
            bytes: bytes, workDone: workDone, current: self.current, width: width - prefix.count)
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
        self.drawn = true
    }

    /// Erases the line, before the summary is printed.
    public func clear() {
        guard self.isEnabled, self.drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        self.drawn = false
    }

    /// The text of the line; `workDone` counts the files that needed work (not skipped as unchanged),
    /// which is what photos/s and the ETA are about.
    static func render(
        done: Int, discovered: Int, discoveryDone: Bool, elapsed: Double, bytes: Int64, workDone: Int,
        current: String, width: Int
    ) -> String {
        let total = discoveryDone ? "\(discovered)" : "\(discovered)+"
        let rate = Double(done) / elapsed
        let photosPerSecond = Double(workDone) / elapsed
        let megabytesPerSecond = Double(bytes) / 1e6 / elapsed
        var eta = "--:--"
        if discoveryDone, rate > 0 {
            let remaining = Int((Double(discovered - done) / rate).rounded())
            eta = String(format: "%d:%02d", remaining / 60, remaining % 60)
        }
        let head = String(
            format: "%d/%@ files  %.1f photos/s  %.1f MB/s  ETA %@  ", done, total, photosPerSecond,
            megabytesPerSecond, eta)
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

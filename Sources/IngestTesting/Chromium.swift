import Foundation

/// Debian's headless Chromium, loading a page from disk as a reader's browser would.
public enum Chromium {
    public struct Page {
        /// The document after it loaded, scripts run.
        public var dom: String
        /// What the page wrote to its console, errors and failed loads among them.
        public var console: [String]
        /// Wall-clock seconds from the browser's start to its exit with the page done.
        public var seconds: Double
    }

    /// Loads `file`, lets it run for two seconds of virtual time (its scripts and their
    /// observers), dumps its DOM and, when `screenshot` is given, writes a PNG of the first
    /// `height` pixels at `width`.
    public static func load(_ file: URL, screenshot: URL? = nil, width: Int = 1280, height: Int = 1600) throws -> Page {
        let profile = TemporaryFolder("chromium-profile")
        var arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)", "--enable-logging=stderr", "--v=0",
            "--dump-dom", "--virtual-time-budget=2000",
        ]
        if let screenshot { arguments.append("--screenshot=\(screenshot.path)") }
        let started = Date()
        let result = try runProgram("chromium", arguments + [file.absoluteString], timeout: 120)
        let seconds = Date().timeIntervalSince(started)
        guard result.status == 0, result.stdout.contains("</html>") else {
            throw FixtureError(
                "chromium did not load \(file.path) (status \(result.status)): \(result.stderr.suffix(1_500))")
        }
        // Console lines: `[pid:tid:time:INFO:CONSOLE:42] "text", source: file:///… (42)`.
        let console = result.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return Page(dom: result.stdout, console: console, seconds: seconds)
    }
}

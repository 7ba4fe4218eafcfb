import Foundation
import IngestCore

/// What to add to a camera's clock to get the true time, and which files it is for
/// (`--clock-offset serial:012345=-01:02:30`).
///
/// A camera keeps whatever time someone set: after a trip or a change to summer time it is off by
/// minutes or an hour, and every photo it took near the window's edge lands outside it. The
/// offset moves the clock's wall time before any zone rule reads it, so a time that carries its
/// own offset moves too; the file's bytes are never changed.
public struct ClockOffset: Sendable, Equatable {
    /// Which files the offset is for.
    public enum Selector: Sendable, Equatable {
        /// The body of this serial number (EXIF BodySerialNumber, or the maker note's).
        case serial(String)
        /// Every body of this model (IFD0 Model), compared without regard to case.
        case model(String)
        /// Every file under this folder (an absolute path).
        case folder(String)
    }

    public var selector: Selector
    /// Seconds to add to the camera's time.
    public var seconds: Int

    public init(_ selector: Selector, seconds: Int) {
        self.selector = selector
        self.seconds = seconds
    }

    /// `serial:012345=-01:02:30`, `model:Canon EOS R6=+00:59`, `folder:/card/B=-1:00`; nil for
    /// anything else. A folder is made absolute against `folder`'s working directory by the caller.
    public init?(parsing text: String) {
        guard let equals = text.lastIndex(of: "="), let colon = text.firstIndex(of: ":"), colon < equals else {
            return nil
        }
        let kind = text[..<colon]
        let value = String(text[text.index(after: colon)..<equals]).trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty, let seconds = Self.seconds(String(text[text.index(after: equals)...])) else {
            return nil
        }
        switch kind {
        case "serial": self.init(.serial(value), seconds: seconds)
        case "model": self.init(.model(value), seconds: seconds)
        case "folder": self.init(.folder(value), seconds: seconds)
        default: return nil
        }
    }

    /// `[+-]HH:MM[:SS]` in seconds (the sign is required: which way the clock was off matters).
    public static func seconds(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let sign = trimmed.first, sign == "+" || sign == "-" else { return nil }
        let parts = trimmed.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = parts.count == 3 ? Int(parts[2]) : 0,
            (0...99).contains(hours), (0..<60).contains(minutes), (0..<60).contains(seconds)
        else { return nil }
        let total = hours * 3_600 + minutes * 60 + seconds
        return sign == "-" ? -total : total
    }

    /// `-01:02:30`: seconds as a signed offset.
    public static func format(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        return (seconds < 0 ? "-" : "+")
            + String(format: "%02d:%02d:%02d", magnitude / 3_600, magnitude / 60 % 60, magnitude % 60)
    }

    /// Whether the offset is for a file at `path` taken by `body`.
    public func applies(to body: CameraBody, path: String) -> Bool {
        switch self.selector {
        case .serial(let serial): body.serial == serial
        case .model(let model): body.model?.caseInsensitiveCompare(model) == .orderedSame
        case .folder(let folder): path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
        }
    }

    /// How specific the selector is: a serial names one body, a model several, a folder any.
    var rank: Int {
        switch self.selector {
        case .serial: 0
        case .model: 1
        case .folder: 2
        }
    }
}

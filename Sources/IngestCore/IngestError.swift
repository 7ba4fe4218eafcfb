import Foundation

/// Why a file could not be ingested, or a run could not go on.
///
/// One struct for every domain: `code` says what kind of failure it is (extensible, so that
/// later stages add codes without touching this file), `message` says it in words a user can
/// act on. Messages never carry secrets.
public struct IngestError: Error, Sendable, CustomStringConvertible, Equatable {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { self.name }

        public static let unreadable = Code("unreadable")
        public static let changedWhileReading = Code("changedWhileReading")
        public static let tooLarge = Code("tooLarge")
        public static let decodeFailed = Code("decodeFailed")
        public static let tooManyPixels = Code("tooManyPixels")
        /// A raw photo that embeds no preview to make thumbnails from (a Lightroom Smart Preview,
        /// a cut file): kept without thumbnails, as a video none of whose frames decode.
        public static let noPreview = Code("noPreview")
        /// libvips could not encode a thumbnail of pixels it decoded: not known to lie in the file.
        public static let encodeFailed = Code("encodeFailed")
        public static let storeFailed = Code("storeFailed")
        public static let uploadRejected = Code("uploadRejected")
        public static let uploadFailed = Code("uploadFailed")
        /// The server refused a token even after a fresh one was fetched: the run cannot go on.
        public static let tokenRefused = Code("tokenRefused")
        public static let serverUnusable = Code("serverUnusable")
        /// The server has answered nothing (connections refused or timing out) for longer than the
        /// run waits: the run stops, leaving what is not done for the next.
        public static let serverUnreachable = Code("serverUnreachable")
        /// The run stopped (Ctrl-C) before this file's work finished: not the file's fault.
        public static let stopped = Code("stopped")
        public static let catalogUnusable = Code("catalogUnusable")
        public static let archiveUnusable = Code("archiveUnusable")
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// Another run holds the catalog or the archive, and this one was told not to wait.
        public static let busy = Code("busy")
        /// `verify` found that the destination no longer holds what the catalog says it was given
        /// (removed from the server, or damaged or gone in the archive): the next run sends it again.
        public static let missingAtDestination = Code("missingAtDestination")

        /// Whether the failure lies in the file's own bytes (it does not decode, or it is a
        /// decompression bomb): trying the same bytes again gives the same answer, so a later run
        /// leaves the unchanged file alone unless asked to retry it.
        public var isInTheFile: Bool { Self.inTheFile.contains(self) }

        /// The codes of failures that lie in the file's own bytes.
        public static let inTheFile: [Code] = [.decodeFailed, .tooManyPixels]

        /// Whether the failure stops the whole run, whichever file met it: a refused token, or a
        /// server that answers no one, fails every file after it too.
        public var stopsTheRun: Bool { self == .tokenRefused || self == .serverUnreachable }
    }

    public var code: Code
    public var message: String
    public var path: String?
    /// What failed underneath (SQLite, the file system, a process), kept as it was thrown for
    /// whoever wants to look; the message already says it in words.
    public var cause: (any Error)?

    public init(_ code: Code, _ message: String, path: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }

    /// An error that says `context`, then what `cause` says: "cannot read the catalog x: disk
    /// I/O error".
    public init(_ code: Code, _ context: String, because cause: any Error, path: String? = nil) {
        self.init(code, context + ": " + Self.describe(cause), path: path, cause: cause)
    }

    /// What an underlying error says, in words: Foundation's errors by their localized
    /// description, an ``IngestError`` by its message, others as they describe themselves (GRDB's
    /// say SQLite's code and message).
    public static func describe(_ error: any Error) -> String {
        if let error = error as? IngestError { return error.message }
        if error is CocoaError || error is POSIXError || type(of: error) == NSError.self {
            return error.localizedDescription
        }
        return String(describing: error)
    }

    /// Equal when they say the same of the same file; the cause is in the message.
    public static func == (lhs: IngestError, rhs: IngestError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.path == rhs.path
    }

    public var description: String {
        if let path = self.path { return "\(path): \(self.message)" }
        return self.message
    }
}

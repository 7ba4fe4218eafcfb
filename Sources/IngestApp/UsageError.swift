/// A setting or argument the user got wrong: the command line reports it as a usage error (exit
/// status 2) with this message, before any file is touched.
public struct UsageError: Error, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { self.message }
}

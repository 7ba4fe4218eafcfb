/// The other file of a pair (a Live Photo's still and clip, a raw photo and its JPEG), and why
/// they are one: kept together, they go to the same events.
public struct FilePair: Sendable, Equatable {
    /// The other file's path.
    public var path: String
    /// Why the two are a pair, in words (which identifier, or which camera and time).
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

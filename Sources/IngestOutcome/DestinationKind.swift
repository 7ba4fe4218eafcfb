/// What kind of place photos go to, read from a destination's identity (the catalog keeps only
/// that string): the one place where an identity's spelling is known.
public enum DestinationKind: String, Sendable, Codable {
    /// The local archive: a photo is "stored".
    case archive
    /// A PhotoShare server: a photo is "uploaded".
    case server

    /// The kind of the destination whose identity is `identity`.
    public init(identity: String) {
        self = identity.hasPrefix(Self.archive.prefix) ? .archive : .server
    }

    /// The identity of this kind's destination at `place` (the archive's folder, the server's address).
    public func identity(at place: String) -> String { self.prefix + place }

    /// Where the destination whose identity is `identity` lies: the archive's folder, the
    /// server's address.
    public static func place(in identity: String) -> String {
        let kind = DestinationKind(identity: identity)
        return identity.hasPrefix(kind.prefix) ? String(identity.dropFirst(kind.prefix.count)) : identity
    }

    private var prefix: String { self.rawValue + ":" }

    /// Whether photos there are said to be stored (the archive) rather than uploaded.
    public var isArchive: Bool { self == .archive }
}

import Foundation

/// Where the PhotoShare API lives. Production serves the hash route from a separate functions
/// host; without one, every route is on `baseURL`.
public struct ServerAddress: Sendable, Equatable {
    public var baseURL: String
    public var functionsURL: String?

    public init(baseURL: String, functionsURL: String? = nil) {
        self.baseURL = Self.trimmed(baseURL)
        self.functionsURL = functionsURL.map(Self.trimmed)
    }

    static func trimmed(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// The base URL as it may be shown, logged or recorded: without the credentials a URL can
    /// carry (`https://user:secret@host`).
    public var shown: String {
        guard var parts = URLComponents(string: self.baseURL), parts.user != nil || parts.password != nil else {
            return self.baseURL
        }
        parts.user = nil
        parts.password = nil
        return parts.string ?? self.baseURL
    }
}

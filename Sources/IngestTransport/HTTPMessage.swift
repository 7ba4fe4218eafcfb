import Foundation
import IngestCore

/// One HTTP request as photoingest makes them: a URL, headers, and a body that is nothing,
/// JSON, or a multipart form whose file parts stream from disk.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    public var method: Method
    public var url: String
    public var headers: [(String, String)]
    public var body: Body

    public enum Body: Sendable {
        case none
        case json(Data)
        case multipart([FormPart])
    }

    public init(method: Method, url: String, headers: [(String, String)] = [], body: Body = .none) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One part of a multipart form.
public struct FormPart: Sendable {
    public var name: String
    public var content: Content
    /// For file parts: the name sent in Content-Disposition (libcurl escapes it).
    public var filename: String?
    public var contentType: String?

    public enum Content: Sendable {
        case text(String)
        case bytes([UInt8])
        /// Read from this file as the transfer goes, never held in memory whole.
        case file(path: String, size: Int64)
        /// Read from content with no file of its own as the transfer goes, never held whole.
        case content(ContentSource)
    }

    public init(name: String, content: Content, filename: String? = nil, contentType: String? = nil) {
        self.name = name
        self.content = content
        self.filename = filename
        self.contentType = contentType
    }
}

/// What came back: the status, the headers (names lowercased) and the body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
}

/// A transfer that did not produce a response: no connection, a timeout, a reset.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var description: String { self.message }
}

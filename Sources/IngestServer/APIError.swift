import Foundation
import Hummingbird

/// An error answered as the PhotoShare API answers errors: a status and a JSON body with
/// `success: false` and a message (plus the fields the contract adds to a duplicate: `duplicate`
/// and the `hash` that arrived).
public struct APIError: HTTPResponseError, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var message: String
    public var duplicate: Bool?
    public var hash: String?
    public var headers: HTTPFields

    public init(
        _ status: HTTPResponse.Status, _ message: String, duplicate: Bool? = nil, hash: String? = nil,
        headers: HTTPFields = [:]
    ) {
        self.status = status
        self.message = message
        self.duplicate = duplicate
        self.hash = hash
        self.headers = headers
    }

    public var description: String { "\(self.status.code) \(self.message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        APIResponse.response(
            APIResponse.Failure(error: self.message, duplicate: self.duplicate, hash: self.hash), status: self.status,
            headers: self.headers)
    }
}

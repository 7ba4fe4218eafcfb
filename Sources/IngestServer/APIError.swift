import Foundation
import Hummingbird

/// An error answered as the PhotoShare API answers errors: a status and a JSON body with
/// `success: false` and a message (plus any fields the contract adds, such as `duplicate`).
public struct APIError: HTTPResponseError, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var message: String
    public var fields: [String: any Sendable]
    public var headers: HTTPFields

    public init(
        _ status: HTTPResponse.Status, _ message: String, fields: [String: any Sendable] = [:],
        headers: HTTPFields = [:]
    ) {
        self.status = status
        self.message = message
        self.fields = fields
        self.headers = headers
    }

    public var description: String { "\(self.status.code) \(self.message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var object: [String: Any] = ["success": false, "error": self.message]
        for (key, value) in self.fields { object[key] = value }
        return JSONBody.response(object, status: self.status, headers: self.headers)
    }
}

/// JSON responses from plain dictionaries: the contract's field names vary too much between
/// routes for one Codable type each to pay off.
enum JSONBody {
    static func response(_ object: [String: Any], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:])
        -> Response
    {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

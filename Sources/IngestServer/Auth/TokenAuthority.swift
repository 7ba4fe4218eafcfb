import Foundation
import Hummingbird
import IngestCore
import JWTKit

/// The claims of a PhotoShare token.
struct PhotoShareClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var kind: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try self.exp.verifyNotExpired()
    }
}

/// Signs and checks HS256 tokens with the server's secret. A token's `kind` claim says which
/// requests it may make; a token with no kind is good for both.
public struct TokenAuthority: Sendable {
    let keys: JWTKeyCollection

    public init(secret: String) async {
        self.keys = JWTKeyCollection()
        await self.keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
    }

    /// A token for `user`, valid for `ttl` seconds, of one kind or (nil) both.
    public func sign(user: String, ttl: TimeInterval, kind: TokenKind?) async throws -> String {
        let claims = PhotoShareClaims(
            sub: SubjectClaim(value: user), exp: ExpirationClaim(value: Date().addingTimeInterval(ttl)),
            kind: kind?.rawValue)
        return try await self.keys.sign(claims)
    }

    /// The user a request's bearer token names, if the token is valid and of the kind needed.
    ///
    /// - Throws: ``APIError`` 401 for a missing, malformed, wrongly signed or expired token;
    ///   403 for a valid token of the other kind.
    public func user(of request: Request, needing kind: TokenKind) async throws -> String {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw APIError(.unauthorized, "missing bearer token")
        }
        let token = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        let claims: PhotoShareClaims
        do {
            claims = try await self.keys.verify(token, as: PhotoShareClaims.self)
        } catch {
            throw APIError(.unauthorized, "invalid or expired token")
        }
        if let granted = claims.kind, granted != kind.rawValue {
            throw APIError(.forbidden, "this is an \(granted) token; this request needs an \(kind.rawValue) token")
        }
        return claims.sub.value
    }
}

import Foundation

/// A JWT (header.payload.signature, base64url) as a client reads it: the subject and the
/// expiry; the signature is never checked by the client, so any base64url text serves.
public enum UnsignedToken {
    /// A token for `user` expiring `expiresIn` seconds from now.
    public static func make(_ user: String, expiresIn: TimeInterval) -> String {
        func base64url(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let exp = Int(Date().addingTimeInterval(expiresIn).timeIntervalSince1970)
        return base64url(#"{"alg":"HS256","typ":"JWT"}"#) + "." + base64url(#"{"sub":"\#(user)","exp":\#(exp)}"#)
            + "." + base64url("not-a-real-signature")
    }
}

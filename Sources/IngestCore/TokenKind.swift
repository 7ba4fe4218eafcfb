/// The two bearer tokens of the PhotoShare API: access for every query, upload for
/// `POST /api/mobile-upload` only.
public enum TokenKind: String, Sendable, CaseIterable {
    case access, upload
}

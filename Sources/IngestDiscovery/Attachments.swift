/// What describes a found file beside its path and stamp, and few files have: its sidecar, the
/// zip entry it is, a note of the walk's. Held by reference, so that the values that carry it
/// through the walk and the stages stay small (and nil, allocating nothing, for a plain file).
final class Attachments: Sendable, Equatable {
    let sidecar: Sidecar?
    let member: ZipMember?
    let note: String?

    private init(sidecar: Sidecar?, member: ZipMember?, note: String?) {
        self.sidecar = sidecar
        self.member = member
        self.note = note
    }

    /// Nil when there is nothing to attach, decided before anything is allocated (a failable
    /// class initializer allocates first).
    static func of(sidecar: Sidecar?, member: ZipMember?, note: String? = nil) -> Attachments? {
        sidecar == nil && member == nil && note == nil
            ? nil : Attachments(sidecar: sidecar, member: member, note: note)
    }

    static func == (left: Attachments, right: Attachments) -> Bool {
        left === right || (left.sidecar == right.sidecar && left.member == right.member && left.note == right.note)
    }
}

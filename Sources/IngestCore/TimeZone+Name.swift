import Foundation

extension TimeZone {
    /// The name shown and recorded for this zone: its IANA identifier, except that UTC is `UTC`
    /// whichever alias the system gave it (Foundation turns `UTC` into `GMT`; Debian's
    /// /etc/localtime says `Etc/UTC`).
    public var name: String {
        Self.utcAliases.contains(self.identifier) ? "UTC" : self.identifier
    }

    static let utcAliases: Set<String> = [
        "UTC", "Etc/UTC", "UCT", "Etc/UCT", "Universal", "Etc/Universal", "Zulu", "Etc/Zulu",
    ]
}

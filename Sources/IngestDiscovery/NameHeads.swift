import IngestCore

/// The names of a folder a watch reads when a few files arrive: those that share a head (the
/// name up to its first dot) with one of them, and iCloud's CSVs.
///
/// A file's partners and sidecars share its head (`IMG_1.jpg`, `IMG_1.MOV`, `IMG_1.xmp`,
/// `IMG_1.jpg.xmp`). A hot folder may hold a hundred thousand files; the names are judged as
/// bytes, before any string is made or any `stat` done. The test keeps more than it must, never
/// fewer: heads are compared by hash with ASCII letters in one case, and a head with bytes beyond
/// ASCII (whose case Unicode folds) is always kept.
struct NameHeads: Sendable {
    private let hashes: Set<UInt64>

    /// The heads of `names`; nil when one of them has a head beyond ASCII: Unicode's case folds
    /// and equivalences (a Kelvin sign is a K to a string's `==`) then make names alike that
    /// differ in bytes, and the folder is read whole.
    init?(of names: some Sequence<String>) {
        var hashes = Set<UInt64>()
        for name in names {
            guard let hash = Self.hash(of: PathBytes.bytes(name)) else { return nil }
            hashes.insert(hash)
        }
        self.hashes = hashes
    }

    /// Whether the entry named `name` (its bytes) may be a partner, a sidecar or a CSV of the names.
    func keeps(_ name: some Collection<UInt8>) -> Bool {
        guard let hash = Self.hash(of: name) else { return true }
        return self.hashes.contains(hash) || Self.mayBeDetails(name)
    }

    /// FNV-1a of the head's bytes, ASCII letters in lower case; nil when the head has a byte
    /// beyond ASCII.
    static func hash(of name: some Collection<UInt8>) -> UInt64? {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name {
            if byte == UInt8(ascii: ".") { break }
            guard byte < 0x80 else { return nil }
            hash = (hash ^ UInt64(Self.lower(byte))) &* 0x100_0000_01b3
        }
        return hash
    }

    /// Whether the name may be an iCloud `Photo Details….csv` (``ICloudPhotoDetails/isDetails(_:)``
    /// says whether it is).
    static func mayBeDetails(_ name: some Collection<UInt8>) -> Bool {
        let prefix = "photo details".utf8
        let suffix = ".csv".utf8
        // Most names are not: a byte's look before any array is made.
        guard let first = name.first, Self.lower(first) == UInt8(ascii: "p") else { return false }
        return name.count >= prefix.count + suffix.count
            && name.prefix(prefix.count).map(Self.lower).elementsEqual(prefix)
            && name.suffix(suffix.count).map(Self.lower).elementsEqual(suffix)
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}

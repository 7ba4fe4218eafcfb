/// Why a zip file, or one of its entries, cannot be read: damaged, cut short, or holding what
/// photoingest does not read (encryption, a compression other than deflate).
public struct ZipError: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

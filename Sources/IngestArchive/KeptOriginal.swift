import IngestCore

/// An original as the archive's index records it, for `verify` to check against the disk.
public struct KeptOriginal: Sendable, Equatable {
    public var hash: ContentHash
    public var size: Int
    /// Relative to the archive's root, as ``ArchiveLayout`` names them; the thumbnails' are empty
    /// for a video none of whose frames decoded.
    public var original: String
    public var thumbnails: [String]
    /// The events that hold it, by id.
    public var events: [String]

    public init(hash: ContentHash, size: Int, original: String, thumbnails: [String], events: [String]) {
        self.hash = hash
        self.size = size
        self.original = original
        self.thumbnails = thumbnails
        self.events = events
    }
}

import IngestContainers
import IngestCore
import IngestDiscovery

/// A file read once, with its SHA-256. A photo's bytes are in memory: everything after this reads
/// the buffer, never the file again. A video is never held: only its `moov` box is kept, and it
/// is stored or uploaded streamed from its file.
public struct LoadedFile: Sendable {
    public var file: DiscoveredFile
    public var kind: MediaKind
    /// A photo's whole file; empty for a video. Emptied before a store that reads the original from disk.
    public var bytes: [UInt8]
    /// Gives `bytes`'s buffer back for a later file when the last copy of this goes away.
    public var lease: FileBuffers.Lease?
    /// A video's `moov` box contents (its metadata); empty for a photo.
    public var movie: [UInt8] = []
    /// A video's top-level `meta` box contents (a Sony camera's XML); empty when it has none.
    public var movieMetadata: [UInt8] = []
    public var hash: ContentHash
    public var readSeconds: Double
    public var hashSeconds: Double
    /// Its XMP sidecar's bytes, read with it (nil when it has none), or why they could not be:
    /// dated from and stored as these very bytes.
    public var sidecar: Result<[UInt8], IngestError>? = nil
    /// Its Google Takeout JSON's fields, read with it (nil when it has none), or why they could
    /// not be.
    public var takeout: Result<TakeoutFields, TakeoutJSON.Refusal>? = nil

    public init(
        file: DiscoveredFile, kind: MediaKind, bytes: [UInt8], movie: [UInt8] = [], movieMetadata: [UInt8] = [],
        hash: ContentHash, readSeconds: Double, hashSeconds: Double,
        sidecar: Result<[UInt8], IngestError>? = nil, takeout: Result<TakeoutFields, TakeoutJSON.Refusal>? = nil
    ) {
        self.file = file
        self.kind = kind
        self.bytes = bytes
        self.movie = movie
        self.movieMetadata = movieMetadata
        self.hash = hash
        self.readSeconds = readSeconds
        self.hashSeconds = hashSeconds
        self.sidecar = sidecar
        self.takeout = takeout
    }

    /// Lets go of a photo's bytes (an uploader that streams the original from its file needs none),
    /// their buffer going back for a later file once no copy of this holds it.
    public mutating func releaseBytes() {
        self.bytes = []
        self.lease = nil
    }
}

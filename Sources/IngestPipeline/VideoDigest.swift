import IngestContainers
import IngestCore
import IngestDestinations
import IngestDiscovery
import IngestHashing

/// What one pass over a video gives, fed chunk by chunk as it streams (from its file, or inflated
/// from a zip file's entry): its SHA-256 and its `moov` box, never the video itself.
struct VideoDigest {
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var hasher = ContentHasher()
    private var boxes: MovieBoxCollector
    /// Bytes taken so far.
    private(set) var offset: UInt64 = 0
    private var hashing = Duration.zero

    /// For a video of `size` bytes whose reading began at `started`.
    init(size: UInt64, started: ContinuousClock.Instant) {
        self.boxes = MovieBoxCollector(fileSize: size)
        self.started = started
    }

    /// Takes the next bytes of the video.
    mutating func take(_ bytes: UnsafeRawBufferPointer) {
        let hashStarted = self.clock.now
        self.hasher.update(bytes)
        self.hashing += self.clock.now - hashStarted
        self.boxes.consume(bytes, at: self.offset)
        self.offset += UInt64(bytes.count)
    }

    /// The video read, once every byte was taken; without its `moov` box (the index of its
    /// samples) no player can play it, and it fails as a broken file.
    func finish(_ file: DiscoveredFile, kind: MediaKind) throws(IngestError) -> LoadedFile {
        guard self.boxes.isComplete else {
            throw IngestError(
                .decodeFailed, "not a playable video: \(self.boxes.problem ?? "no moov box")", path: file.path)
        }
        var loaded = LoadedFile(
            file: file, kind: kind, bytes: [], movie: self.boxes.movie, hash: self.hasher.finalize(),
            readSeconds: (self.clock.now - self.started - self.hashing).seconds, hashSeconds: self.hashing.seconds)
        loaded.movieMetadata = self.boxes.metadata
        return loaded
    }
}

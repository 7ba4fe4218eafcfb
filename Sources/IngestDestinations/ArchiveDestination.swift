import IngestArchive
import IngestCore
import IngestOutcome

/// The local archive as a ``Destination``.
public struct ArchiveDestination: Destination {
    /// Nil for a dry run where no archive exists yet: it holds nothing, and nothing is stored.
    public let archive: Archive?
    public let root: String
    /// Writes and fsyncs block: they run on the I/O workers.
    let io: WorkerPool

    public init(archive: Archive?, root: String, io: WorkerPool) {
        self.archive = archive
        self.root = root
        self.io = io
    }

    public init(archive: Archive, io: WorkerPool) {
        self.init(archive: archive, root: archive.root, io: io)
    }

    public var identity: String { self.kind.identity(at: self.root) }
    public var kind: DestinationKind { .archive }
    /// Its hashes change only through runs, which its lock keeps apart: nothing to fetch again.
    public var holdingsChangeMeanwhile: Bool { false }

    /// The event is registered now; its hashes are read on the first photo that needs them, so
    /// that a re-run with nothing new does not load them.
    public func prepare(_ event: Event) async throws(IngestError) -> HashSource {
        guard let archive = self.archive else { return .fetched([]) }
        do {
            if !archive.isReadOnly { try await archive.register(event) }
        } catch {
            throw IngestError(.archiveUnusable, "cannot write to the archive's index", because: error)
        }
        return .onFirstClaim { () async throws(IngestError) -> KnownHashes in
            do {
                return try await archive.hashes(inEvent: event.id)
            } catch {
                throw IngestError(.archiveUnusable, "cannot read the archive's index", because: error)
            }
        }
    }

    /// Where the original is copied from: a photo's bytes, read once; a video streamed again from
    /// its file, or from its zip file's entry.
    static func original(of file: LoadedFile) -> ArchiveItem.Original {
        guard file.kind.isVideo else { return .bytes(file.bytes) }
        if let member = file.file.member { return .content(member.content) }
        return .file(path: file.file.path, stamp: file.file.stamp)
    }

    public func store(_ photo: PreparedPhoto, in event: Event) async throws(IngestError) -> StoreResult {
        let item = ArchiveItem(
            hash: photo.file.hash, kind: photo.file.kind, filename: photo.filename, capturedAt: photo.capture.instant,
            captureSource: photo.capture.source.rawValue,
            original: Self.original(of: photo.file),
            thumbnail500: photo.thumbnails?.large.jpeg ?? [], thumbnail200: photo.thumbnails?.small.jpeg ?? [],
            // Kept beside the original when it could be read; the photo is stored either way (its
            // time was read from the sidecar already, or the reason noted).
            sidecar: try? photo.file.sidecar?.get())
        guard let archive = self.archive, !archive.isReadOnly else {
            throw IngestError(.storeFailed, "the archive is open read-only (a dry run)")
        }
        let result = try await self.io.run { () throws(IngestError) -> Archive.StoreResult in
            try archive.store(item, inEvent: event.id)
        }
        return result == .stored ? .stored : .duplicate
    }
}

import Foundation
import GRDB
import IngestCore

/// A photo offered to the archive: the original's bytes as read, and its thumbnails.
public struct ArchiveItem: Sendable {
    public var hash: ContentHash
    public var kind: MediaKind
    public var filename: String
    /// When the photo was taken, and where that time came from (`exif-offset`, …), as far as known.
    public var capturedAt: Date?
    public var captureSource: String?
    public var original: Original
    public var thumbnail500: [UInt8]
    public var thumbnail200: [UInt8]
    /// The XMP sidecar that came with the original, kept beside it (``ArchiveLayout/sidecar(_:)``).
    public var sidecar: [UInt8]?

    /// Where the original's bytes are: in memory (the pipeline read them once), or in a file the
    /// caller wrote and verified under the archive's `tmp/` (the server streams uploads there).
    public enum Original: Sendable {
        case bytes([UInt8])
        /// Moved into place, not copied; must be on the archive's file system.
        case temporaryFile(path: String, size: Int)
        /// Copied from the file as it streams (a video, never held in memory), checked on the way
        /// against the stamp it had when read and the hash it had then.
        case file(path: String, stamp: FileStamp)
        /// Copied from content with no file of its own (a video inside a zip file) as it streams,
        /// checked on the way against the hash it had when read.
        case content(ContentSource)
    }

    public init(
        hash: ContentHash, kind: MediaKind, filename: String, capturedAt: Date?, captureSource: String?,
        original: Original, thumbnail500: [UInt8], thumbnail200: [UInt8], sidecar: [UInt8]? = nil
    ) {
        self.sidecar = sidecar
        self.hash = hash
        self.kind = kind
        self.filename = filename
        self.capturedAt = capturedAt
        self.captureSource = captureSource
        self.original = original
        self.thumbnail500 = thumbnail500
        self.thumbnail200 = thumbnail200
    }
}

extension ArchiveItem {
    /// A video none of whose frames decoded has none: the index says so with empty paths.
    var hasThumbnails: Bool { !self.thumbnail500.isEmpty && !self.thumbnail200.isEmpty }

    var originalSize: Int {
        switch self.original {
        case .bytes(let bytes): bytes.count
        case .temporaryFile(_, let size): size
        case .file(_, let stamp): Int(stamp.size)
        case .content(let source): Int(source.size)
        }
    }
}

/// A local archive: originals stored once by SHA-256, their thumbnails, and an index of which
/// event holds which hash. The embedded default destination of photoingest, and the store
/// behind `photoshare-server`.
///
/// Every file is written under a temporary name, synced, then renamed into place, so that a crash
/// or a full disk never leaves a partial original or thumbnail under its real name; the index
/// row is committed, durably, only after the files and their names are on the disk.
public final class Archive: Sendable {
    public let root: String
    let index: DatabasePool
    /// Opened only to read (``init(existingAt:)``): nothing may be stored.
    public let isReadOnly: Bool
    /// Where the stores running at once are made durable together.
    let commits: GroupCommit<ArchivePlacement>
    /// The names of the files written under `tmp/`.
    let temporaryNames = TemporaryNames()

    /// Opens the archive at `root`, creating it if needed.
    public init(root: String) throws(IngestError) {
        self.root = root
        self.isReadOnly = false
        try Self.checkRoot(root)
        do {
            for folder in ["originals", "thumbnails/500", "thumbnails/200", ArchiveLayout.temporary] {
                try FileManager.default.createDirectory(
                    atPath: root + "/" + folder, withIntermediateDirectories: true)
            }
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            // A commit is durable when it returns (one a group of stores, see ``GroupCommit``): the
            // caller's catalog records a photo stored only after its index row is on the disk.
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            let index = try DatabasePool(path: root + "/" + ArchiveLayout.index, configuration: configuration)
            self.index = index
            self.commits = GroupCommit { group in Archive.commit(group, root: root, index: index) }
            let migrator = ArchiveIndex.migrator
            if try self.index.read({ try migrator.hasBeenSuperseded($0) }) {
                throw IngestError(.archiveUnusable, "the archive \(root) was written by a newer photoingest")
            }
            try migrator.migrate(self.index)
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(.archiveUnusable, "cannot use the archive \(root)", because: error)
        }
    }

    /// Opens the archive at `root` only to read it (a dry run), creating nothing; nil when there
    /// is no archive there yet.
    public convenience init?(existingAt root: String) throws(IngestError) {
        try Self.checkRoot(root)
        guard FileManager.default.fileExists(atPath: root + "/" + ArchiveLayout.index) else { return nil }
        try self.init(readingAt: root)
    }

    private init(readingAt root: String) throws(IngestError) {
        self.root = root
        self.isReadOnly = true
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let index = try DatabasePool(path: root + "/" + ArchiveLayout.index, configuration: configuration)
            self.index = index
            self.commits = GroupCommit { group in Archive.commit(group, root: root, index: index) }
        } catch {
            throw IngestError(.archiveUnusable, "cannot read the archive \(root)", because: error)
        }
    }

    /// Refuses a root that is there but is not a folder, in words that say so.
    public static func checkRoot(_ root: String) throws(IngestError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), !isFolder.boolValue else { return }
        throw IngestError(
            .archiveUnusable,
            "the archive \(root) is a file, not a folder; give --archive a folder (it is made if missing)")
    }

    /// Creates the event if the archive does not know it, or updates its name and window.
    public func register(_ event: Event) async throws {
        try await self.index.write { db in
            try db.execute(
                sql: """
                    INSERT INTO event (id, name, start_time, end_time, created_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET name = excluded.name, start_time = excluded.start_time,
                        end_time = excluded.end_time
                    """,
                arguments: [
                    event.id, event.name, event.window.start.map(RFC3339.format),
                    event.window.end.map(RFC3339.format), RFC3339.format(Date()),
                ])
        }
    }

    /// Every hash the event holds.
    public func hashes(inEvent eventID: String) async throws -> KnownHashes {
        try await self.index.read { db in
            var hashes: [ContentHash] = []
            let rows = try String.fetchCursor(
                db, sql: "SELECT sha256 FROM event_photo WHERE event_id = ?", arguments: [eventID])
            while let hex = try rows.next() {
                if let hash = ContentHash(parsing: hex) { hashes.append(hash) }
            }
            return KnownHashes(hashes)
        }
    }

    /// Whether the event holds the hash, without blocking a thread of Swift's cooperative pool.
    public func holds(_ hash: ContentHash, inEvent eventID: String) async throws -> Bool {
        try await self.index.read { try Self.holds(hash, inEvent: eventID, $0) }
    }

    static func holds(_ hash: ContentHash, inEvent eventID: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT 1 FROM event_photo WHERE event_id = ? AND sha256 = ?"),
            arguments: [eventID, hash.hex]) ?? false
    }

    public enum StoreResult: Sendable, Equatable {
        case stored
        /// The event already held these bytes (its row was there). Files of them already whole
        /// in the archive were not written again; one that differed (another shard's sidecar of
        /// the same bytes) was.
        case duplicate
    }

    /// Stores the item in the event: its files written whole, then committed with the stores
    /// running beside it (``commit(_:root:index:)``): made durable, renamed into place, indexed.
    /// An event that holds the hash already is found by its row at the commit (`.duplicate`),
    /// content-addressed files there already, whole, are not written again. The run left out what
    /// each event held when it started; what another shard stored since is rare, and found then:
    /// no read of the index before each store.
    ///
    /// Blocking (file writes and fsync); run it off the cooperative pool.
    public func store(_ item: ArchiveItem, inEvent eventID: String) throws(IngestError) -> StoreResult {
        do {
            let original = ArchiveLayout.original(item.hash, kind: item.kind)
            let large = ArchiveLayout.thumbnail(item.hash, edge: 500)
            let small = ArchiveLayout.thumbnail(item.hash, edge: 200)
            let hasThumbnails = item.hasThumbnails
            let now = RFC3339.format(Date())
            let placement = ArchivePlacement(
                staged: try self.stage(item, original: original, large: large, small: small),
                photo: [
                    item.hash.hex, item.originalSize, item.kind.mediaType, original, hasThumbnails ? large : "",
                    hasThumbnails ? small : "", now,
                ],
                eventPhoto: [
                    eventID, item.hash.hex, item.filename, item.capturedAt.map(RFC3339.format), item.captureSource, now,
                ])
            self.commits.commit(placement)
            guard let result = placement.result else {
                throw IngestError(.storeFailed, "storing in the archive failed: its commit left no result")
            }
            return try result.get()
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(.storeFailed, "storing in the archive failed", because: error)
        }
    }

    /// Writes the item's files that the archive does not hold yet under `tmp/`: its original, its
    /// sidecar, its thumbnails. On a failure, those already written are removed.
    private func stage(_ item: ArchiveItem, original: String, large: String, small: String) throws(IngestError)
        -> [StagedFile]
    {
        var staged: [StagedFile] = []
        do throws(IngestError) {
            switch item.original {
            case .bytes(let bytes): staged += [try self.stage(bytes, for: original)].compactMap { $0 }
            case .temporaryFile(let path, _): staged.append(try self.stage(temporary: path, for: original))
            case .file(let path, let stamp):
                if !self.holds(relativePath: original, size: Int(stamp.size)) {
                    let copy = try self.copy(path, stamp: stamp, hash: item.hash)
                    staged.append(try self.stage(temporary: copy, for: original))
                }
            case .content(let source):
                if !self.holds(relativePath: original, size: Int(source.size)) {
                    staged.append(try self.stage(temporary: try self.copy(source, hash: item.hash), for: original))
                }
            }
            if let sidecar = item.sidecar, let file = try self.stage(sidecar, for: ArchiveLayout.sidecar(item.hash)) {
                staged.append(file)
            }
            if item.hasThumbnails {
                for (bytes, path) in [(item.thumbnail500, large), (item.thumbnail200, small)] {
                    if let file = try self.stage(bytes, for: path) { staged.append(file) }
                }
            }
            return staged
        } catch {
            for file in staged { file.file.close() }
            Self.discard(staged)
            throw error
        }
    }
}

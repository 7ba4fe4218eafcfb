import Foundation
import IngestArchive
import IngestCore
import IngestImaging

/// Where a tile's picture comes from.
///
/// When the run stored into an archive that holds it, the archive's own 200 px thumbnail,
/// referenced. Otherwise a 200 px JPEG made from the file with libvips and embedded in the page,
/// up to `embedLimit` of them, so that the page stays small enough to mail.
public struct ReportThumbnails: Sendable {
    public var archiveRoot: String?
    public var embedLimit: Int
    /// Files made into embedded thumbnails at once, each on a worker thread.
    public var jobs: Int

    /// A few hundred kilobytes per hundred tiles: 1,000 keep a page near 10 MB.
    public static let defaultEmbedLimit = 1_000

    public init(archiveRoot: String?, embedLimit: Int = Self.defaultEmbedLimit, jobs: Int = 2) {
        self.archiveRoot = archiveRoot
        self.embedLimit = embedLimit
        // Each job holds a file of up to 64 MB while libvips reads it.
        self.jobs = min(4, max(1, jobs))
    }

    /// The pictures found, by path, and how many photos could have had one embedded but were
    /// left out by the limit.
    public struct Found: Sendable {
        public var sources: [String: String] = [:]
        public var leftOut = 0
        public var limit: Int
    }

    /// A picture for each photo that can have one, taking the photos in `order` (the ones most
    /// worth seeing first) so that the limit leaves out the least useful.
    public func find(_ order: [ReportPhoto]) async -> Found {
        var found = Found(limit: self.embedLimit)
        var toEmbed: [ReportPhoto] = []
        var seen = Set<String>()
        for photo in order where seen.insert(photo.path).inserted {
            if let reference = self.archiveReference(photo) {
                found.sources[photo.path] = reference
            } else if Self.canEmbed(photo) {
                if toEmbed.count < self.embedLimit { toEmbed.append(photo) } else { found.leftOut += 1 }
            }
        }
        let thumbnailer = Thumbnailer(largeEdge: 200, smallEdge: 200, quality: 70)
        // Reading files and libvips block: they run on the pipeline's kind of worker threads, `jobs`
        // of them, never on Swift's cooperative pool.
        let workers = WorkerPool(name: "report-thumbnails", threads: self.jobs)
        defer { workers.shutdown() }
        await withTaskGroup(of: (String, String?).self) { group in
            for photo in toEmbed {
                group.addTask {
                    let source = try? await workers.run { Self.embedded(photo.path, kind: photo.kind, thumbnailer) }
                    return (photo.path, source ?? nil)
                }
            }
            for await (path, source) in group {
                if let source { found.sources[path] = source }
            }
        }
        return found
    }

    /// Photos libvips may read whole into memory: photos the run read (not videos, whose frames
    /// are not decoded again for a report), not failures, not files of more than 64 MB.
    static func canEmbed(_ photo: ReportPhoto) -> Bool {
        guard photo.status != .failed, let kind = photo.kind, !kind.isVideo,
            let size = (try? FileManager.default.attributesOfItem(atPath: photo.path))?[.size] as? Int
        else { return false }
        return size <= 64 << 20
    }

    /// `file://` URL of the archive's 200 px thumbnail, when it is there.
    func archiveReference(_ photo: ReportPhoto) -> String? {
        guard let root = self.archiveRoot, let hash = photo.sha256 else { return nil }
        let path = root + "/" + ArchiveLayout.thumbnail(hash, edge: 200)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return URL(fileURLWithPath: path).absoluteString
    }

    /// A `data:` URL of a 200 px JPEG of the photo (a raw photo's from its preview); nil for what
    /// libvips cannot read.
    static func embedded(_ path: String, kind: MediaKind?, _ thumbnailer: Thumbnailer) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let thumbnail = data.withUnsafeBytes { bytes in try? thumbnailer.thumbnails(of: bytes, kind: kind).small }
        guard let thumbnail else { return nil }
        return "data:image/jpeg;base64," + Data(thumbnail.jpeg).base64EncodedString()
    }
}

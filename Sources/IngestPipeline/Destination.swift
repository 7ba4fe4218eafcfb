import IngestCore
import IngestDating
import IngestImaging
import IngestOutcome

/// A photo or video ready to be stored: its bytes as read (a video's stay in its file), its
/// metadata and its thumbnails.
public struct PreparedPhoto: Sendable {
    public var file: LoadedFile
    public var capture: CaptureTime
    /// Nil for a video none of whose frames could be decoded: it is stored all the same.
    public var thumbnails: Thumbnails?

    /// The original's base name, as the upload form and the archive index record it (text:
    /// bytes that are not UTF-8 as `\xNN`): its Google Takeout title where its JSON is its own.
    public var filename: String {
        let name = PathBytes.unicode(String(self.file.file.path.split(separator: "/").last ?? ""))
        guard case .takeoutJSON(let rule)? = self.file.file.sidecar?.format, rule != .edited,
            case .success(let fields)? = self.file.takeout, let title = fields.title
        else { return name }
        return Self.name(title: title, file: name)
    }

    /// A Takeout title (the name the photo was uploaded under, which Takeout cuts in the file's
    /// name) made a file name: characters no file system takes replaced, the file's own extension
    /// kept where the title's differs (Google converts some formats), at most 255 bytes; the
    /// file's name where the title gives none.
    static func name(title: String, file: String) -> String {
        let unsafe = Set("\\/:*?\"<>|")
        var clean = String(title.map { unsafe.contains($0) || $0.isNewline || ($0.asciiValue ?? 32) < 32 ? "_" : $0 })
            .trimmingCharacters(in: .whitespaces)
        guard !clean.isEmpty, clean != ".", clean != ".." else { return file }
        func suffix(_ name: String) -> Substring? {
            name.lastIndex(of: ".").flatMap { $0 > name.startIndex ? name[$0...] : nil }
        }
        if let own = suffix(file), suffix(clean)?.lowercased() != own.lowercased() {
            clean = String(suffix(clean).map { clean.dropLast($0.count) } ?? Substring(clean)) + own
        }
        guard clean.utf8.count > 255 else { return clean }
        let kept = suffix(clean).flatMap { $0.utf8.count <= 32 ? String($0) : nil } ?? ""
        var stem = ""
        for character in clean.dropLast(kept.count) {
            guard stem.utf8.count + character.utf8.count + kept.utf8.count <= 255 else { break }
            stem.append(character)
        }
        return stem + kept
    }
}

/// Where photos go: the local archive (the embedded default) or a PhotoShare server.
public protocol Destination: Sendable {
    /// A stable name for the catalog: a file done for one destination is not done for another.
    var identity: String { get }

    /// What kind of place it is: the words a report uses ("stored", "uploaded") follow it.
    var kind: DestinationKind { get }

    /// Whether what it holds may change while a run goes on, other than through the run (other
    /// clients upload to a server): a watch then fetches its hash sets again now and then.
    var holdingsChangeMeanwhile: Bool { get }

    /// Makes the event known to the destination and says where the hashes it already holds for
    /// it come from: fetched now, or read on first need where that is as safe.
    func prepare(_ event: Event) async throws(IngestError) -> HashSet.Source

    /// Stores the photo in the event.
    func store(_ photo: PreparedPhoto, in event: Event) async throws(IngestError) -> StoreResult

    /// True when ``store(_:in:)`` reads the original from its file rather than from memory, so
    /// that the pipeline can let go of the bytes while the photo waits for its turn.
    var readsOriginalFromDisk: Bool { get }

    /// Counters for the run's summary (requests, retries, …).
    var statistics: [String: Int] { get }

    /// For a destination that uploads, its uploads sending and queued, for the progress line.
    var uploads: UploadCounts? { get }
}

extension Destination {
    public var readsOriginalFromDisk: Bool { false }
    public var statistics: [String: Int] { [:] }
    public var uploads: UploadCounts? { nil }
}

public enum StoreResult: Sendable, Equatable {
    case stored
    /// The destination already held these bytes for the event.
    case duplicate
}

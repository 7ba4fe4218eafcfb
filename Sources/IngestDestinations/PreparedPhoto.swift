import IngestContainers
import IngestCore
import IngestDating
import IngestImaging

/// A photo or video ready to be stored: its bytes as read (a video's stay in its file), its
/// metadata and its thumbnails.
public struct PreparedPhoto: Sendable {
    public var file: LoadedFile
    public var capture: CaptureTime
    /// Nil for a video none of whose frames could be decoded: it is stored all the same.
    public var thumbnails: Thumbnails?

    public init(file: LoadedFile, capture: CaptureTime, thumbnails: Thumbnails?) {
        self.file = file
        self.capture = capture
        self.thumbnails = thumbnails
    }

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

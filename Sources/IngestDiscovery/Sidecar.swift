import Foundation
import IngestContainers
import IngestCore

/// A file that says something of a photo or video beside it: an XMP sidecar (`IMG_1.xmp` or
/// `IMG_1.CR2.xmp`, any case, in the same folder), or a Google Takeout JSON (``TakeoutPairing``).
/// It travels with its file: dated from, never a file of its own.
public struct Sidecar: Sendable, Equatable {
    /// What kind of sidecar it is.
    public enum Format: Sendable, Equatable {
        /// An XMP packet: an editor's sidecar, stored beside the original.
        case xmp
        /// A Google Takeout JSON, paired with its file by `rule`; read for its time and bin.
        case takeoutJSON(TakeoutPairing.Rule)
        /// An iCloud export's `Photo Details.csv`, read by the walk: the time its row for the
        /// file gives, in seconds since 1970 (UTC, whole minutes). Never read again.
        case icloudCSV(seconds: Int64)
    }

    /// Absolute path (for a zip file's entry, its path through the zip file).
    public var path: String
    public var stamp: FileStamp
    public var format: Format
    /// The zip file's entry it is, when it is one.
    public var member: ZipMember? {
        get { if case .member(let member)? = self.boxedMember { member } else { nil } }
        set { self.boxedMember = newValue.map(Boxed.member) }
    }
    /// Boxed, so that a sidecar stays small: a folder's listing carries an optional one inline
    /// beside every entry's name and status, and only an entry inside a zip file has one.
    private var boxedMember: Boxed?
    private indirect enum Boxed: Sendable, Equatable {
        case member(ZipMember)
    }
    /// For a Takeout JSON: whether this run takes a photo from Google Photos' bin
    /// (`--include-trashed`). Part of the fingerprint, so that a run that changes it looks again.
    public var takesTrashed = false

    public init(path: String, stamp: FileStamp, format: Format = .xmp, member: ZipMember? = nil) {
        self.path = path
        self.stamp = stamp
        self.format = format
        self.boxedMember = member.map(Boxed.member)
    }

    /// What the catalog keeps of it, so that a changed sidecar dates its file again.
    public var fingerprint: String {
        let stamp = "\(self.stamp.size):\(self.stamp.modifiedNanoseconds):\(self.stamp.inode)"
        switch self.format {
        case .xmp: return stamp
        case .takeoutJSON: return stamp + (self.takesTrashed ? ":json+trashed" : ":json")
        case .icloudCSV(let seconds): return stamp + ":csv:\(seconds)"
        }
    }

    /// The most of it that is read: an XMP packet's limit, or a Takeout JSON's.
    var sizeLimit: Int {
        switch self.format {
        case .xmp: XMPPacket.sizeLimit
        case .takeoutJSON: TakeoutJSON.sizeLimit
        case .icloudCSV: ICloudPhotoDetails.sizeLimit
        }
    }

    /// Its bytes, when it is no larger than its format is read (``sizeLimit``).
    ///
    /// - Throws: the reason, when it is larger or cannot be read.
    public func bytes() throws(IngestError) -> [UInt8] {
        guard self.stamp.size <= self.sizeLimit else {
            throw IngestError(.unreadable, "larger than \(self.sizeLimit >> 20) MiB")
        }
        if let member = self.member { return try member.whole() }
        do {
            let file = try OpenFile(self.path, O_RDONLY)
            defer { file.close() }
            var bytes = [UInt8](repeating: 0, count: Int(self.stamp.size))
            let count = try file.readFully(into: &bytes)
            return Array(bytes[..<count])
        } catch {
            throw IngestError(.unreadable, "\(error)")
        }
    }

    /// Its file name.
    public var name: String { self.path.split(separator: "/").last.map(String.init) ?? self.path }

    /// Why an XMP sidecar no file took is skipped, in a folder or a zip file alike.
    static let withoutFile = "an XMP sidecar with no photo or video of its name beside it"

    /// A sidecar's extension, matched in any case.
    static let suffix = Array(".xmp".utf8)

    /// Whether `name` is a sidecar's (`*.xmp`, any case, with a name before the extension).
    static func isSidecar(_ name: String) -> Bool {
        NameScanner.hasSuffix(name, lowercased: Self.suffix)
    }

    /// Which sidecar of a folder belongs to each of its other entries: by position in `names`,
    /// the position of the sidecar. `NAME.EXT.xmp` is the file `NAME.EXT`'s; `NAME.xmp` is that
    /// of every `NAME.*` without one of its own (a raw and its JPEG: one shot). Names compare in
    /// any case.
    static func owners(in names: [String]) -> [Int: Int] {
        var byBase: [String: Int] = [:]
        for (index, name) in names.enumerated() where Self.isSidecar(name) {
            byBase[String(name.lowercased().dropLast(Self.suffix.count))] = index
        }
        guard !byBase.isEmpty else { return [:] }
        var owners: [Int: Int] = [:]
        for (index, name) in names.enumerated() where !Self.isSidecar(name) {
            let lower = name.lowercased()
            if let sidecar = byBase[lower] {
                owners[index] = sidecar
            } else if let dot = lower.lastIndex(of: "."), dot > lower.startIndex,
                let sidecar = byBase[String(lower[..<dot])]
            {
                owners[index] = sidecar
            }
        }
        return owners
    }
}

import Foundation
import IngestContainers
import IngestCore

/// Reading one folder: its entries by name, less what the rules exclude and hidden names, and its
/// ignore file.
extension Discovery {
    /// The globs of one `.photoingestignore`, for the entries below its folder.
    struct IgnoreScope: Sendable, Equatable {
        var folder: String
        var globs: [String]
    }

    /// A folder's entries, sorted by name so that runs are repeatable, each with its `stat` and
    /// its XMP sidecar (a sidecar taken by a file is no entry of its own); how many hidden ones
    /// were left out, and how many each exclusion rule left out.
    struct Listing: Sendable {
        var entries: [(name: String, status: Status, sidecar: Sidecar?, note: String?)] = []
        /// Whether the folder has an iCloud `Photo Details.csv`.
        var isICloud = false
        var hidden = 0
        var excluded: [String: Int] = [:]
        /// The folder's `.photoingestignore`, when it has one.
        var ignoreFile: IgnoreScope?
        /// An ignore file that could not be read: the walk goes on without it and says so.
        var ignoreFileProblem: DiscoveryItem?
    }

    /// Reads the folder `path`, found under the root `base`, below the ignore files `scopes`; in a
    /// Takeout's folder (`inTakeout`), its files are paired with their JSONs. With `only`, the
    /// entries are those of the names it keeps (the ignore file is read whatever it says): a watch
    /// looks at a few names of a folder that may hold a hundred thousand.
    func entries(
        of path: String, base: String, scopes: [IgnoreScope], inTakeout: Bool = false, only: NameHeads? = nil
    ) -> Result<Listing, DiscoveryError> {
        guard let directory = PathBytes.withCString(path, { opendir($0) }) else {
            return .failure(DiscoveryError(FileSystem.lastError))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes -> String? in
                let name = bytes.prefix(while: { $0 != 0 })
                if name.elementsEqual(".".utf8) || name.elementsEqual("..".utf8) { return nil }
                if let only, !only.keeps(name), !name.elementsEqual(ExclusionRules.ignoreFileName.utf8) { return nil }
                return PathBytes.string(name)
            }
            if let name { names.append(name) }
        }
        var listing = Listing()
        let folder = path == "/" ? "" : path
        if names.contains(ExclusionRules.ignoreFileName) {
            let ignorePath = folder + "/" + ExclusionRules.ignoreFileName
            switch Self.readIgnoreFile(ignorePath) {
            case .success(let globs): listing.ignoreFile = IgnoreScope(folder: folder, globs: globs)
            case .failure(let reason):
                listing.ignoreFileProblem = .problem(
                    path: ignorePath, status: .failed, reason: "cannot read ignore file: \(reason)")
            }
        }
        let below = path == base ? "" : Self.relative(path, to: base) + "/"
        let allScopes = scopes + (listing.ignoreFile.map { [$0] } ?? [])
        names = names.filter { name in
            if name == ExclusionRules.ignoreFileName { return false }
            switch self.leftOut(name, at: folder + "/" + name, below: below + name, scopes: allScopes) {
            case .rule(let rule)?:
                listing.excluded[rule, default: 0] += 1
                return false
            case .hidden?:
                listing.hidden += 1
                return false
            case nil: break
            }
            return true
        }
        // Sorted before the stats, so that the sort moves names, not `stat` records.
        names.sort()
        let descriptor = dirfd(directory)
        listing.entries = names.map { ($0, Self.status($0, in: descriptor), nil, nil) }
        Self.attachSidecars(&listing, owners: Sidecar.owners(in: names), folder: folder)
        if inTakeout { self.attachTakeoutJSONs(&listing, folder: folder) }
        Self.attachICloudTimes(&listing, folder: folder)
        return .success(listing)
    }

    /// Why a walk passes over an entry without opening it.
    enum LeftOut: Equatable {
        /// An exclusion rule's glob names it.
        case rule(String)
        /// A hidden name (a leading dot; `.` and `..` are no names).
        case hidden
    }

    /// Why the entry `name` (at `path`, and at `below` under the walk's root, below the ignore
    /// files `scopes`) is passed over; nil when it is walked.
    func leftOut(_ name: String, at path: String, below: String, scopes: [IgnoreScope]) -> LeftOut? {
        let inScopes = scopes.map { scope in
            (globs: scope.globs, path: String(path.dropFirst(scope.folder.count + 1)))
        }
        if let rule = self.rules.rule(name: name, path: below, scopes: inScopes) { return .rule(rule) }
        if !self.includeHidden && name.hasPrefix(".") && name != "." && name != ".." { return .hidden }
        return nil
    }

    /// Gives each entry its XMP sidecar (`owners`: ``Sidecar/owners(in:)`` of the entries' names)
    /// and drops the sidecars taken.
    static func attachSidecars(_ listing: inout Listing, owners: [Int: Int], folder: String) {
        Self.attach(&listing, owners.mapValues { ($0, .xmp) }, folder: folder, takesTrashed: false)
    }

    /// Gives each file of a Takeout's folder its JSON (``TakeoutPairing``), where it has no XMP
    /// sidecar, and drops the JSONs taken.
    func attachTakeoutJSONs(_ listing: inout Listing, folder: String) {
        let entries = listing.entries
        let pairs = TakeoutPairing.pairs(in: entries.map(\.name)).filter { entries[$0.key].sidecar == nil }
        Self.attach(
            &listing, pairs.mapValues { ($0.json, .takeoutJSON($0.rule)) }, folder: folder,
            takesTrashed: self.includeTrashed)
    }

    /// Gives each entry that `owners` names (by position) the sidecar at the position it gives, of
    /// its format, and drops the sidecars taken; one that is not a readable regular file stays an
    /// entry, to be reported as any file is. A sidecar several files take is dropped once.
    static func attach(
        _ listing: inout Listing, _ owners: [Int: (position: Int, format: Sidecar.Format)], folder: String,
        takesTrashed: Bool
    ) {
        guard !owners.isEmpty else { return }
        var taken = Set<Int>()
        for (owner, found) in owners {
            let sidecar = listing.entries[found.position]
            guard case .found(let status) = sidecar.status, status.kind == S_IFREG else { continue }
            var attached = Sidecar(path: folder + "/" + sidecar.name, stamp: status.stamp, format: found.format)
            attached.takesTrashed = takesTrashed
            listing.entries[owner].sidecar = attached
            taken.insert(found.position)
        }
        listing.entries = listing.entries.enumerated().filter { !taken.contains($0.offset) }.map(\.element)
    }

    /// Gives each file of a folder with an iCloud `Photo Details.csv` the time of its row, where it
    /// has no other sidecar; each CSV is kept as an entry with a note of what became of it.
    static func attachICloudTimes(_ listing: inout Listing, folder: String) {
        let csvs = listing.entries.compactMap { entry -> Sidecar? in
            guard ICloudPhotoDetails.isDetails(entry.name), case .found(let status) = entry.status,
                status.kind == S_IFREG
            else { return nil }
            return Sidecar(path: folder + "/" + entry.name, stamp: status.stamp, format: .icloudCSV(seconds: 0))
        }
        guard !csvs.isEmpty else { return }
        listing.isICloud = true
        let (times, notes) = Self.icloudTimes(csvs)
        for index in listing.entries.indices {
            let name = listing.entries[index].name
            if let note = notes[folder + "/" + name] {
                listing.entries[index].note = note
            } else if listing.entries[index].sidecar == nil, let sidecar = times[name] {
                listing.entries[index].sidecar = sidecar
            }
        }
    }

    /// What one folder's iCloud CSVs (`csvs`, read here) say: each listed file's time, as a
    /// sidecar naming the CSV that listed it, and for each CSV, by path, what became of it. A name
    /// two rows give two times dates nothing.
    static func icloudTimes(_ csvs: [Sidecar]) -> (times: [String: Sidecar], notes: [String: String]) {
        var table = ICloudPhotoDetails.Table()
        var origin: [String: Sidecar] = [:]
        var notes: [String: String] = [:]
        for csv in csvs {
            let read: Result<ICloudPhotoDetails.Table, ICloudPhotoDetails.Refusal>
            do throws(IngestError) {
                read = ICloudPhotoDetails.table(in: try csv.bytes())
            } catch {
                read = .failure(ICloudPhotoDetails.Refusal(description: error.message))
            }
            switch read {
            case .success(let found):
                table.merge(found)
                for name in found.times.keys where origin[name] == nil { origin[name] = csv }
                notes[csv.path] =
                    "an iCloud Photo Details.csv, read for the times of the \(found.times.count) files it lists"
                    + (found.unreadRows > 0 ? " (\(found.unreadRows) rows with no date it could read)" : "")
            case .failure(let refusal):
                notes[csv.path] = "an iCloud Photo Details.csv that could not be read: \(refusal)"
            }
        }
        var times: [String: Sidecar] = [:]
        for (name, seconds) in table.times {
            guard var sidecar = origin[name] else { continue }
            sidecar.format = .icloudCSV(seconds: seconds)
            times[name] = sidecar
        }
        return (times, notes)
    }

    /// The sidecar of a file given as a root (no folder listing finds it): `NAME.EXT.xmp`, else
    /// `NAME.xmp`, each in lower or upper case.
    static func sidecar(beside path: String) -> Sidecar? {
        let stem = Self.stemKeepingCase(of: path)
        for candidate in [path + ".xmp", path + ".XMP"] + (stem.map { [$0 + ".xmp", $0 + ".XMP"] } ?? []) {
            if case .found(let status) = Self.status(candidate), status.kind == S_IFREG {
                return Sidecar(path: candidate, stamp: status.stamp)
            }
        }
        return nil
    }

    /// `path` without its extension, as written; nil when the name has none.
    static func stemKeepingCase(of path: String) -> String? {
        Self.extensionDot(in: path).map { String(path[..<$0]) }
    }

    /// The globs of the ignore file at `path`; only its first 64 KiB are read.
    static func readIgnoreFile(_ path: String) -> Result<[String], DiscoveryError> {
        do {
            let file = try OpenFile(path, O_RDONLY)
            defer { file.close() }
            var bytes = [UInt8](repeating: 0, count: ExclusionRules.ignoreFileLimit)
            let count = try file.readFully(into: &bytes)
            return .success(ExclusionRules.globs(inIgnoreFile: String(decoding: bytes[..<count], as: UTF8.self)))
        } catch {
            return .failure(DiscoveryError(error.description))
        }
    }
}

import Foundation
import IngestContainers
import IngestCore

/// Walking into a zip file: its entries are files, found as a folder's are.
extension Discovery {
    /// The zip file at `path`: walked once (by device and inode, as a folder is), its entries
    /// sorted as a walk of its folders would find them, less those the rules and the hidden
    /// names leave out, checked against any of their folders' names.
    func visitZip(
        _ path: String, status: Found, base: String, scopes: [IgnoreScope], state: inout WalkState
    ) -> Visit {
        let key = status.key
        if self.excluded.contains(key) { return Visit() }
        guard state.entered.insert(key).inserted else {
            return Visit(item: .problem(path: path, status: .skipped, reason: "zip file already walked (given again)"))
        }
        let entries: [ZipEntry]
        do {
            entries = try ZipMember.entries(of: path, size: UInt64(status.stamp.size))
        } catch {
            return Visit(item: .problem(path: path, status: .failed, reason: error.message))
        }
        state.takeout.add(path, entries: entries)
        var visit = Visit(zips: 1)
        let below = path == base ? "" : Self.relative(path, to: base) + "/"
        var kept: [(components: [Substring], entry: ZipEntry)] = []
        for entry in entries {
            let components = entry.name.split(separator: "/", omittingEmptySubsequences: false)
            var left = false
            for depth in components.indices {
                let inside = components[...depth].joined(separator: "/")
                switch self.leftOut(
                    String(components[depth]), at: path + "/" + inside, below: below + inside, scopes: scopes)
                {
                case .rule(let rule)?: visit.excluded[rule, default: 0] += 1
                case .hidden?: visit.hidden += 1
                case nil: continue
                }
                left = true
                break
            }
            if !left { kept.append((components, entry)) }
        }
        // Folder by folder, as a walk of the unpacked files would meet them (and pairs stay neighbours).
        kept.sort { $0.components.lexicographicallyPrecedes($1.components) }
        var pairs: [String: TakeoutIndex.Pairs] = [:]
        let xmp = Self.xmpSidecars(inZip: path, kept)
        let icloud = Self.icloudTimes(inZip: path, kept)
        // Entries come folder by folder: whether a folder is a Takeout's is asked once for it.
        var takeoutFolders: [String: Bool] = [:]
        // What describes a file, first that holds: its XMP sidecar, its Takeout JSON, its iCloud CSV row.
        visit.children = kept.reversed().compactMap { kept in
            let member = ZipMember(archive: path, entry: kept.entry)
            if xmp.taken.contains(member.path) { return nil }
            var child = Entry(
                path: member.path, status: nil, scopes: [], sidecar: xmp.owners[member.path], member: member)
            let folder = kept.components.dropLast().joined(separator: "/")
            let inTakeout =
                kept.components.count > 1
                && (takeoutFolders[folder]
                    ?? {
                        let answer = TakeoutPairing.isTakeout(folder: folder)
                        takeoutFolders[folder] = answer
                        return answer
                    }())
            if inTakeout {
                child.inTakeout = true
                let found = pairs[folder] ?? state.takeout.pairs(in: folder)
                pairs[folder] = found
                let name = String(kept.components.last ?? "")
                // A JSON a file took, in this zip file or another part, travels with that file.
                if TakeoutPairing.isJSON(name) && found.taken.contains(member.path) { return nil }
                if child.sidecar == nil, let (json, rule) = found.byMedia[name] {
                    var sidecar = Sidecar(path: json.path, stamp: json.stamp, format: .takeoutJSON(rule), member: json)
                    sidecar.takesTrashed = self.includeTrashed
                    child.sidecar = sidecar
                }
            }
            if icloud.folders.contains(folder) {
                child.inICloud = true
                child.note = icloud.notes[member.path]
                if child.sidecar == nil { child.sidecar = icloud.times[member.path] }
            }
            return child
        }
        return visit
    }

    /// The XMP sidecars among a zip file's `kept` entries, paired with their files folder by
    /// folder as a folder's are (``Sidecar/owners(in:)``): each owner's sidecar by the owner's
    /// path, and the sidecars taken.
    static func xmpSidecars(inZip archive: String, _ kept: [(components: [Substring], entry: ZipEntry)]) -> (
        owners: [String: Sidecar], taken: Set<String>
    ) {
        var withSidecars = Set<ArraySlice<Substring>>()
        for entry in kept where Sidecar.isSidecar(entry.entry.name) { withSidecars.insert(entry.components.dropLast()) }
        guard !withSidecars.isEmpty else { return ([:], []) }
        var folders: [ArraySlice<Substring>: [(components: [Substring], entry: ZipEntry)]] = [:]
        for entry in kept where withSidecars.contains(entry.components.dropLast()) {
            folders[entry.components.dropLast(), default: []].append(entry)
        }
        var owners: [String: Sidecar] = [:]
        var taken = Set<String>()
        for (_, entries) in folders {
            let names = entries.map { String($0.components.last ?? "") }
            for (owner, position) in Sidecar.owners(in: names) where !entries[position].entry.isFolder {
                let sidecar = ZipMember(archive: archive, entry: entries[position].entry)
                owners[ZipMember(archive: archive, entry: entries[owner].entry).path] = Sidecar(
                    path: sidecar.path, stamp: sidecar.stamp, member: sidecar)
                taken.insert(sidecar.path)
            }
        }
        return (owners, taken)
    }

    /// The iCloud CSVs among a zip file's `entries`, read: the folders that have one, each listed
    /// file's time by the file's path, and each CSV's note by its path. Each part of an export is
    /// its own: a name in another part is another photo.
    static func icloudTimes(inZip archive: String, _ kept: [(components: [Substring], entry: ZipEntry)]) -> (
        folders: Set<String>, times: [String: Sidecar], notes: [String: String]
    ) {
        var byFolder: [String: [Sidecar]] = [:]
        for (components, entry) in kept {
            guard let name = components.last, ICloudPhotoDetails.isDetails(name) else { continue }
            let member = ZipMember(archive: archive, entry: entry)
            let folder = components.dropLast().joined(separator: "/")
            byFolder[folder, default: []].append(
                Sidecar(path: member.path, stamp: member.stamp, format: .icloudCSV(seconds: 0), member: member))
        }
        var times: [String: Sidecar] = [:]
        var notes: [String: String] = [:]
        for (folder, csvs) in byFolder {
            let found = Self.icloudTimes(csvs)
            let prefix = archive + "/" + (folder.isEmpty ? "" : folder + "/")
            for (name, sidecar) in found.times { times[prefix + name] = sidecar }
            notes.merge(found.notes) { first, _ in first }
        }
        return (Set(byFolder.keys), times, notes)
    }

    /// A zip file's entry (the walk's `entry`): a file to read, or why it is not one.
    static func visit(_ member: ZipMember, entry: Entry) -> Visit {
        let name = member.entry.name
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        if name.hasPrefix("/") || name.utf8.contains(0) || components.contains(where: { $0 == ".." || $0 == "." }) {
            return Visit(
                item: .problem(
                    path: member.path, status: .skipped,
                    reason: "a zip entry whose name is not a path inside its zip file (/, . or ..)"))
        }
        if ZipMember.isZip(name) || ZipMember.tarRefusal(name) != nil {
            return Visit(item: .problem(path: member.path, status: .skipped, reason: "an archive inside a zip file"))
        }
        if Sidecar.isSidecar(name) {
            return Visit(
                item: .problem(
                    path: member.path, status: .skipped,
                    reason: Sidecar.withoutFile))
        }
        if entry.inTakeout && TakeoutPairing.isJSON(name) { return Self.loneJSON(member.path) }
        if let note = entry.note { return Visit(item: .problem(path: member.path, status: .skipped, reason: note)) }
        var visit = Visit(
            item: .file(DiscoveredFile(path: member.path, stamp: member.stamp, sidecar: entry.sidecar, member: member)))
        visit.count(entry.sidecar, entry: entry)
        return visit
    }
}

/// What a walk says of a Takeout's JSONs and of the files beside them.
extension Discovery {
    /// A Takeout JSON no file took: reported, never read.
    static func loneJSON(_ path: String) -> Visit {
        var visit = Visit(
            item: .problem(
                path: path, status: .skipped,
                reason:
                    "a Google Takeout JSON that no photo or video beside it pairs with (an album's metadata.json is one)"
            ))
        visit.takeoutLoneJSON = 1
        return visit
    }
}

extension Discovery.Visit {
    /// Counts a file (the walk's `entry`) found with `sidecar`: an XMP sidecar, a Takeout JSON by
    /// its rule, an iCloud CSV's row, or none in a Takeout's or an iCloud export's folder.
    mutating func count(_ sidecar: Sidecar?, entry: Discovery.Entry) {
        switch sidecar?.format {
        case .xmp?: self.sidecars = 1
        case .takeoutJSON(let rule)?: self.takeoutPaired[rule] = 1
        case .icloudCSV?: self.icloudDated = 1
        case nil:
            if entry.inTakeout { self.takeoutWithoutJSON = 1 }
            if entry.inICloud { self.icloudWithoutRow = 1 }
        }
    }
}

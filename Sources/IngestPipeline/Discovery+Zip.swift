import Foundation
import IngestContainers
import IngestCore

/// Walking into a zip file: its entries are files, found as a folder's are.
extension Discovery {
    /// The zip file at `path`: walked once (by device and inode, as a folder is), its entries
    /// sorted as a walk of its folders would find them, less those the rules and the hidden
    /// names leave out, checked against any of their folders' names.
    func visitZip(
        _ path: String, status: stat, base: String, scopes: [IgnoreScope], state: inout WalkState
    ) -> Visit {
        let key = DeviceInode(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        if self.excluded.contains(key) { return Visit() }
        guard state.entered.insert(key).inserted else {
            return Visit(item: .problem(path: path, status: .skipped, reason: "zip file already walked (given again)"))
        }
        let entries: [ZipEntry]
        do {
            entries = try ZipMember.entries(of: path, size: UInt64(status.st_size))
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
        visit.children = kept.reversed().compactMap { kept in
            let member = ZipMember(archive: path, entry: kept.entry)
            var child = Entry(path: member.path, status: nil, scopes: [], sidecar: nil, member: member)
            let folder = kept.components.dropLast().joined(separator: "/")
            guard kept.components.count > 1, TakeoutPairing.isTakeout(folder: folder) else { return child }
            child.inTakeout = true
            let found = pairs[folder] ?? state.takeout.pairs(in: folder)
            pairs[folder] = found
            let name = String(kept.components.last ?? "")
            if TakeoutPairing.isJSON(name) {
                // A JSON a file took, in this zip file or another part, travels with that file.
                return found.taken.contains(member.path) ? nil : child
            }
            if let (json, rule) = found.byMedia[name] {
                var sidecar = Sidecar(path: json.path, stamp: json.stamp, format: .takeoutJSON(rule), member: json)
                sidecar.takesTrashed = self.includeTrashed
                child.sidecar = sidecar
            }
            return child
        }
        return visit
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
                    path: member.path, status: .skipped, reason: "an XMP sidecar inside a zip file (not read there yet)"
                ))
        }
        if entry.inTakeout && TakeoutPairing.isJSON(name) { return Self.loneJSON(member.path) }
        var visit = Visit(
            item: .file(DiscoveredFile(path: member.path, stamp: member.stamp, sidecar: entry.sidecar, member: member)))
        visit.count(entry.sidecar, inTakeout: entry.inTakeout)
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
    /// Counts a file found with `sidecar`: an XMP sidecar, a Takeout JSON by its rule, or, in a
    /// Takeout, none.
    mutating func count(_ sidecar: Sidecar?, inTakeout: Bool) {
        switch sidecar?.format {
        case .xmp?: self.sidecars = 1
        case .takeoutJSON(let rule)?: self.takeoutPaired[rule] = 1
        case nil: if inTakeout { self.takeoutWithoutJSON = 1 }
        }
    }
}

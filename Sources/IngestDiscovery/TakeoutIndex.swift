import Foundation
import IngestContainers

/// The Takeout folders of the zip files a walk has met, merged across zip files: a photo's JSON
/// can sit in another part of the export than the photo (`takeout-001.zip` holds the photo,
/// `takeout-002.zip` its JSON, under the same folder).
///
/// A walk indexes every zip file it is given, and the zip files of a folder as soon as it reads
/// the folder, before it walks into any of them; only names are kept.
struct TakeoutIndex {
    /// One folder inside the zip files (`Takeout/Google Photos/Photos from 2019`).
    struct Folder {
        var media: [String] = []
        var jsons: [ZipMember] = []
    }

    /// What one folder's pairing gave: each media name's JSON, and the JSONs some media took.
    struct Pairs {
        var byMedia: [String: (json: ZipMember, rule: TakeoutPairing.Rule)] = [:]
        var taken: Set<String> = []
    }

    var folders: [String: Folder] = [:]
    /// The zip files indexed, by path.
    var indexed: Set<String> = []

    /// Adds the Takeout folders of the zip file `archive` (what `stat` said of it), once: its
    /// directory is read here and again when the walk enters it, so that only names are held in
    /// between. One that is not a readable zip file adds nothing (the walk reports it).
    mutating func add(_ archive: String, status: Discovery.Status) {
        guard !self.indexed.contains(archive), case .found(let found) = status, found.kind == S_IFREG,
            let entries = try? ZipMember.entries(of: archive, size: UInt64(found.stamp.size))
        else { return }
        self.add(archive, entries: entries)
    }

    /// Adds the Takeout folders among the `entries` of the zip file `archive`, once.
    mutating func add(_ archive: String, entries: [ZipEntry]) {
        guard self.indexed.insert(archive).inserted else { return }
        for entry in entries {
            guard let slash = entry.name.lastIndex(of: "/") else { continue }
            let name = String(entry.name[entry.name.index(after: slash)...])
            let folder = String(entry.name[..<slash])
            guard !name.isEmpty, TakeoutPairing.isTakeout(folder: folder) else { continue }
            if TakeoutPairing.isJSON(name) {
                self.folders[folder, default: Folder()].jsons.append(ZipMember(archive: archive, entry: entry))
            } else {
                self.folders[folder, default: Folder()].media.append(name)
            }
        }
    }

    /// The pairs of the folder `folder`, over every zip file indexed.
    func pairs(in folder: String) -> Pairs {
        guard let found = self.folders[folder], !found.jsons.isEmpty else { return Pairs() }
        let names = found.media + found.jsons.map { String($0.entry.name.split(separator: "/").last ?? "") }
        var pairs = Pairs()
        for (position, pair) in TakeoutPairing.pairs(in: names) {
            let json = found.jsons[pair.json - found.media.count]
            pairs.byMedia[names[position]] = (json, pair.rule)
            pairs.taken.insert(json.path)
        }
        return pairs
    }
}

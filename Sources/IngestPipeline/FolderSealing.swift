import Foundation
import IngestCore
import IngestDiscovery
import IngestHashing

/// The seals of the folders a run's walk listed, each kept until it is sealed or spoiled: a folder
/// is sealed once every file of it this run met was found done in every event, and unchanged.
///
/// A sealed folder is settled in the next run that finds its digest unchanged, under the same
/// `context` (destination, events and their windows, zone, the rules of what is done): its files
/// are then counted without a catalog lookup each. Any write to the catalog's rows of a file in
/// it (a verify that finds a photo missing, a run of another event) breaks the seal there.
struct FolderSealing {
    /// What a seal holds good for: a digest of the run's settings that decide whether a file is
    /// done.
    let context: String
    /// By folder: the seal, and how many of its files were found done so far.
    private var open: [PathKey: (seal: FolderSeal, done: Int)] = [:]
    /// The folder of the last file counted, out of `open` while its files keep coming.
    private var current: (folder: PathKey, seal: FolderSeal, done: Int)?
    /// The folders all of whose files were found done, to be recorded, by folder.
    private var sealed: [PathKey: FolderSeal] = [:]

    init(context: String) {
        self.context = context
    }

    /// Starts following the folders of `seals`.
    mutating func open(_ seals: [FolderSeal]) {
        for seal in seals { self.open[PathKey(seal.folder)] = (seal, 0) }
    }

    /// Counts the file at `path`: done in every event and unchanged, or not, which spoils its
    /// folder's seal.
    mutating func found(_ path: String, done: Bool) {
        guard !self.open.isEmpty || self.current != nil, let folder = FolderSeal.folder(of: path).map(PathKey.init)
        else { return }
        // A folder's files come one after another, but for those of its folders between them:
        // the one being counted is kept aside, and the table is asked once per change of folder.
        if self.current?.folder != folder {
            if let current = self.current { self.open[current.folder] = (current.seal, current.done) }
            self.current = self.open.removeValue(forKey: folder).map { (folder, $0.seal, $0.done) }
        }
        guard let current = self.current else { return }
        guard done, current.done + 1 < current.seal.files else {
            if done { self.sealed[folder] = current.seal }
            self.current = nil
            return
        }
        self.current?.done += 1
    }

    /// Notes that the catalog's rows of the file at `path` were written by this run: its folder
    /// is not sealed, even if it was found done before (a seal must not outlive its rows, and a
    /// seal not yet recorded has no trigger to delete it).
    mutating func wrote(_ path: String) {
        guard let folder = FolderSeal.folder(of: path).map(PathKey.init) else { return }
        if self.current?.folder == folder { self.current = nil }
        self.open[folder] = nil
        self.sealed[folder] = nil
    }

    /// The folders sealed since the last call: all of them at the end of the walk, else only once
    /// there are enough to be worth a write (each write holds up the walk's scheduling) and no
    /// file is in flight (one in flight could still write a row of a folder sealed).
    mutating func takeSealed(atEnd: Bool, idle: Bool = false) -> [FolderSeal] {
        guard atEnd || (idle && self.sealed.count >= Self.sealsPerWrite) else { return [] }
        defer { self.sealed = [:] }
        return Array(self.sealed.values)
    }

    /// How many sealed folders wait to be recorded at most: a write of a thousand rows costs about
    /// what one of ten does, and the seals waiting stay few whatever the number of folders.
    static let sealsPerWrite = 1_024

    /// The context of a run's seals: everything besides a file's own stamp and the catalog's rows
    /// that decides whether a file counts as done (see `CatalogEntry.isDone`), hashed.
    static func context(
        destination: String, events: [Event], zone: String, readsPositions: Bool, correctsClocks: Bool,
        undated: UndatedPolicy, shard: Shard?
    ) -> String {
        var text = "folder-seal 1\ndestination \(destination)\n"
        for event in events {
            let start = event.window.start.map { "\($0.timeIntervalSince1970)" } ?? "-"
            let end = event.window.end.map { "\($0.timeIntervalSince1970)" } ?? "-"
            text += "event \(event.id) \(start) \(end)\n"
        }
        text += "zone \(zone)\npositions \(readsPositions)\nclocks \(correctsClocks)\n"
        text += "undated \(undated.rawValue)\nshard \(shard?.description ?? "-")\n"
        return ContentHasher.hash(Array(text.utf8)).description
    }
}

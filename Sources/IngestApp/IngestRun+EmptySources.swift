import Foundation
import IngestCatalog
import IngestDiscovery

extension IngestRun {
    /// The folders walked that yielded no file while the catalog knows files under them: an
    /// unmounted share's mount point (empty, or holding only `lost+found` or hidden entries), a
    /// card reader with no card. Each is said as a warning; a run of nothing is not a success
    /// then (``ExitStatus/emptySource``) unless --allow-empty.
    func emptySources(_ fileless: [String], catalog: Catalog?, console: Console) async -> [String] {
        // A watch waits for files; a dry run of a new catalog knows nothing.
        guard let catalog, !self.watching else { return [] }
        var empty: [String] = []
        for path in fileless {
            guard let known = try? await catalog.fileCount(under: path), known > 0 else { continue }
            empty.append(path)
            console.status(
                "warning: \(path) yielded no file, while the catalog knows \(known) \(known == 1 ? "file" : "files") "
                    + "under it: is a share not mounted, or a card not in its reader?"
                    + (self.settings.allowEmpty
                        ? "" : " (exit status 6; --allow-empty to take an empty folder as it is)"),
                always: true)
        }
        return empty
    }
}

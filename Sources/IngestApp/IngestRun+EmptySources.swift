import Foundation
import IngestCatalog
import IngestDiscovery

extension IngestRun {
    /// The folders given to walk that are empty while the catalog knows files under them: an
    /// unmounted share's mount point, a card reader with no card. Each is said as a warning; a
    /// run of nothing is not a success then (``ExitStatus/emptySource``) unless --allow-empty.
    func emptySources(catalog: Catalog?, console: Console) async -> [String] {
        // A watch waits for files; a dry run of a new catalog knows nothing.
        guard let catalog, !self.watching else { return [] }
        var empty: [String] = []
        for path in self.settings.paths.map(Discovery.absolute) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
                (try? FileManager.default.contentsOfDirectory(atPath: path).isEmpty) == true,
                let known = try? await catalog.fileCount(under: path), known > 0
            else { continue }
            empty.append(path)
            console.status(
                "warning: \(path) is empty, while the catalog knows \(known) \(known == 1 ? "file" : "files") under "
                    + "it: is a share not mounted, or a card not in its reader?"
                    + (self.settings.allowEmpty
                        ? "" : " (exit status 6; --allow-empty to take an empty folder as it is)"),
                always: true)
        }
        return empty
    }
}

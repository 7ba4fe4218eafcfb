import Foundation

/// The catalogs `photoingest report` is given: files, folders of them and quoted patterns.
///
/// A sharded import leaves a catalog per shard, often in one folder: a folder stands for the
/// catalogs in it (`*.sqlite`), and a pattern the shell did not expand (`'state/catalog-*.sqlite'`)
/// is expanded here. A file that is not there stays: it may be a shard that has not run.
public enum ReportCatalogs {
    /// The catalogs named by `given`, each once, in the order given (a folder's and a pattern's
    /// sorted).
    ///
    /// - Throws: ``UsageError`` for a folder that holds no catalog or a pattern that matches none.
    public static func expand(_ given: [String]) throws -> [String] {
        var catalogs: [String] = []
        for path in given {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                guard isFolder.boolValue else {
                    catalogs.append(path)
                    continue
                }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                let found = names.filter { $0.hasSuffix(".sqlite") }.sorted(by: Self.naturalOrder).map {
                    (path.hasSuffix("/") ? path : path + "/") + $0
                }
                guard !found.isEmpty else {
                    throw UsageError("The folder '\(path)' holds no catalog (no *.sqlite file in it).")
                }
                catalogs += found
            } else if path.contains(where: { "*?[".contains($0) }) {
                let found = Self.glob(path)
                guard !found.isEmpty else { throw UsageError("No catalog matches '\(path)'.") }
                catalogs += found
            } else {
                catalogs.append(path)
            }
        }
        var seen = Set<String>()
        return catalogs.filter { seen.insert($0).inserted }
    }

    /// The files `pattern` matches, as the shell would expand it.
    static func glob(_ pattern: String) -> [String] {
        var matches = glob_t()
        defer { globfree(&matches) }
        guard Glibc.glob(pattern, 0, nil, &matches) == 0 else { return [] }
        let found = (0..<Int(matches.gl_pathc)).compactMap { matches.gl_pathv[$0].map { String(cString: $0) } }
        return found.sorted(by: Self.naturalOrder)
    }

    /// `catalog-2` before `catalog-10`: numbers in names compared as numbers.
    static func naturalOrder(_ first: String, _ second: String) -> Bool {
        first.compare(second, options: [.numeric]) == .orderedAscending
    }
}

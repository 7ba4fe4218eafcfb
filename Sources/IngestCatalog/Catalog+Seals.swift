import Foundation
import GRDB
import IngestCore

/// Folder seals: the digest of a folder's files that a run recorded when it found every one of
/// them done. A write to the catalog's rows of any file in the folder deletes its seals (the
/// triggers of migration v14), so a seal found is one no later run has contradicted.
extension Catalog {
    /// The digest sealed for `folder` (a folder's path, as its files' paths begin) under
    /// `context`; nil when there is none, or when the catalog cannot say (then each file is
    /// looked up, as without seals).
    public func sealedDigest(of folder: String, context: String) -> String? {
        try? self.pool.read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT digest FROM folder_seal WHERE folder = ? AND context = ?")
            return try String.fetchOne(statement, arguments: [Self.sealKey(folder), context])
        }
    }

    /// Whether any folder is sealed under `context`.
    public func holdsSeals(context: String) -> Bool {
        let found = try? self.pool.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM folder_seal WHERE context = ?)", arguments: [context])
        }
        return found ?? false
    }

    /// Records the seals of `folders` under `context`, each replacing the one before.
    public func recordSeals(_ folders: [(folder: String, digest: String)], context: String) async throws {
        guard !folders.isEmpty else { return }
        try await self.pool.write { db in
            let statement = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO folder_seal (folder, context, digest) VALUES (?, ?, ?)")
            for folder in folders {
                try statement.execute(arguments: [Self.sealKey(folder.folder), context, folder.digest])
            }
        }
    }

    /// How many seals the catalog holds, for tests.
    public func sealCount() async throws -> Int {
        try await self.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM folder_seal") ?? 0 }
    }

    /// A folder as the seal table keys it: its path with a slash, which is what SQL's
    /// `rtrim(path, replace(path, '/', ''))` leaves of the path of a file in it.
    static func sealKey(_ folder: String) -> String { folder + "/" }
}

import IngestContainers

/// One folder as the walk reads it: its listing (or why it could not be read), its seal, and
/// whether that seal is the one an earlier run sealed. A settled folder's listing holds only its
/// folders: its files are done, and are not walked.
struct ListedFolder: Sendable {
    var listing: Result<Discovery.Listing, Discovery.DiscoveryError>
    var seal: FolderSeal?
    var settled = false
}

extension Discovery {
    /// Reads the folder `path`, found under the root `base` below the ignore files `scopes`.
    func list(_ path: String, base: String, scopes: [IgnoreScope]) -> ListedFolder {
        let inTakeout = TakeoutPairing.isTakeout(folder: path)
        let read = self.entries(of: path, base: base, scopes: scopes, inTakeout: inTakeout)
        guard case .success(var listing) = read else { return ListedFolder(listing: read) }
        let seal = self.seal(of: listing, folder: path == "/" ? "" : path, base: base, inTakeout: inTakeout)
        let settled = seal.map { self.isSettled($0) } ?? false
        // A settled folder's files are done: only its folders are walked into.
        if settled { listing.entries.removeAll { !$0.status.isFolder } }
        return ListedFolder(listing: .success(listing), seal: seal, settled: settled)
    }
}

import IngestCatalog
import IngestCore
import IngestDiscovery

/// Folder seals: a re-run that finds a folder as an earlier run sealed it counts its files as
/// done without a catalog lookup each (``FolderSealing``).
extension Pipeline {
    /// Makes `discovery` seal folders, and settle those sealed before, where this run can: with a
    /// catalog, and not for a watch (whose files come back one by one). A run that reports each
    /// unchanged file (`--report`, a page of photos) settles none. Returns what follows the seals.
    func sealing(of discovery: inout Discovery, observer: any RunObserver) -> FolderSealing? {
        let configuration = self.configuration
        guard let catalog = self.catalog, configuration.watch == nil else { return nil }
        let sealing = FolderSealing(
            context: FolderSealing.context(
                destination: self.destination.identity, events: configuration.events,
                zone: configuration.timeZone.name, readsPositions: configuration.zones != nil,
                correctsClocks: !configuration.clockCorrections.isEmpty, undated: configuration.undated,
                shard: configuration.shard))
        discovery.sealsFolders = true
        // The first re-run after an ingest finds none: it asks no folder.
        if !observer.wantsUnchangedOutcomes && catalog.holdsSeals(context: sealing.context) {
            let context = sealing.context
            discovery.sealedDigest = { folder in catalog.sealedDigest(of: folder, context: context) }
            // Folders are read ahead only where the walk is the work: a re-run that may settle
            // folders. Elsewhere the catalog's lookups are, and reading ahead only takes their core.
            discovery.listingThreads = configuration.limits.listingThreads
        }
        return sealing
    }

    /// Records the folders sealed so far (at the end of the walk, or once a write's worth have
    /// been). A seal is only a shortcut: one not recorded costs the next run a lookup per file,
    /// never a file, so a failure here is not the run's. A dry run's catalog is read only.
    func recordSeals(_ sealing: inout FolderSealing?, atEnd: Bool = false, idle: Bool = false) async {
        guard let taken = sealing?.takeSealed(atEnd: atEnd, idle: idle), !taken.isEmpty, let catalog = self.catalog,
            let context = sealing?.context, !self.configuration.dryRun
        else { return }
        try? await catalog.recordSeals(taken.map { ($0.folder, $0.digest) }, context: context)
    }
}

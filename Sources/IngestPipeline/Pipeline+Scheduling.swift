import IngestDiscovery

extension Pipeline {
    /// The files started and not yet ended, the most the group may hold, and the files a watch
    /// sent only to meet the ones that arrived.
    struct Scheduling {
        var inFlight = 0
        let limit: Int
        var companions: Set<String> = []
        /// For a watch: the paths of the files in flight, and the batches that name one of them,
        /// held back until it has ended (a file closed again while it is read, a late partner of a
        /// file still in flight): the catalog then knows what is done, and nothing is done twice.
        var running: Set<String>?
        var deferred: [DiscoveryBatch] = []
        /// For a watch while the walk's files are scheduled: where the files that arrive wait, to
        /// be taken before the walk's next file, and the paths so taken (the walk's own item of
        /// such a file is passed over: the arrival did it, from a later look).
        var arrivals: WatchOutbox?
        var arrived: Set<String> = []
        /// For a watch after its walk: the arrivals (nil: the watch has ended) its follow loop had
        /// asked for, which came back while a batch waited for a free slot.
        var caught: [DiscoveryBatch?] = []
        /// For a run with a catalog: the folders whose files are all found done, to be sealed.
        var sealing: FolderSealing?

        /// Whether `batch` must wait for a file in flight.
        func mustWait(_ batch: DiscoveryBatch) -> Bool {
            guard let running = self.running, !running.isEmpty else { return false }
            return batch.items.contains { $0.file.map { running.contains($0.path) } ?? false }
        }
    }
}

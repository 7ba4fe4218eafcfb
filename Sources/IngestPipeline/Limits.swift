/// Every concurrency limit of a run, in one place, each sized by the resource it guards.
public struct Limits: Sendable, Equatable {
    /// Decoding and thumbnail workers. One image per core with one libvips thread each scales
    /// almost linearly, so decode width × libvips threads (1) = `--jobs` ≤ cores.
    public var cpuWorkers: Int
    /// Reading-and-hashing and archive-writing workers, so that waits on the disk overlap with
    /// decoding instead of idling a CPU worker. Hashing is ~5% of decoding, so these add little CPU;
    /// twice the CPU workers, because each stored photo waits for its files' sync (a group's, see
    /// the archive's `GroupCommit`) and reads must not queue behind it (measured: CPU use 1.78 of
    /// 2 cores with as many as the CPU workers).
    public var ioWorkers: Int
    /// Files in the pipeline at once: enough to keep both pools busy and every upload slot
    /// filled, few enough that memory stays flat whatever the number of files. A file holds its
    /// bytes until it is stored; one waiting for an upload slot holds only its thumbnails.
    public var filesInFlight: Int
    /// Concurrent uploads to a server (each its own HTTP/1.1 connection).
    public var uploads: Int
    /// The walk hands the work batches of this many files, one at a time (it waits while the work
    /// is behind). Each batch is one catalog lookup, so larger batches make fewer round trips: a
    /// re-run of 10,000 unchanged files took 80 ms at 256 and 69 ms at 1,024. A batch is paths and
    /// stat results, about 100 KB.
    public var discoveryBatchSize: Int
    /// Folders the walk reads at once, ahead of it, in a re-run that settles folders: there the
    /// walk's `stat` calls are the whole of the work, and one thread of them leaves a core idle.
    public var listingThreads: Int
    /// The catalog has one writer; each batch of this many records is one transaction.
    public var catalogBatchSize: Int
    /// Events whose hash sets are fetched at once at the start of a run: a few requests in
    /// flight hide the server's latency without flooding it when a user has many events.
    public var hashSetFetches: Int
    /// Files larger than this are failed, not read: every byte of a file is held in memory once.
    public var maxFileBytes: Int

    public init(jobs: Int, uploads: Int = 0) {
        let jobs = max(1, jobs)
        self.cpuWorkers = jobs
        self.ioWorkers = max(4, jobs * 2)
        self.uploads = max(0, uploads)
        self.filesInFlight = jobs * 3 + 2 + self.uploads
        self.discoveryBatchSize = 1_024
        self.listingThreads = min(jobs, 4)
        self.catalogBatchSize = 256
        self.hashSetFetches = 4
        self.maxFileBytes = 1 << 30
    }
}

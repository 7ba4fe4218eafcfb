/// Buffers for whole files, reused from file to file.
///
/// A photo is read whole into memory. Into new memory, each of its pages is found and zeroed by
/// the kernel as the read first touches it: 1,400 page faults for a 5 MB photo, 277,000 over 200
/// (vipsthumbnail made 63,000), most of what the run's system time still had over vipsthumbnail's.
/// Memory that held an earlier file is there already. A buffer comes back when the last holder of
/// its ``Lease`` lets go; one still shared then (a copy of the array kept elsewhere) is simply
/// copied on its next write, as any array, so reuse never changes what a holder sees.
public final class FileBuffers: Sendable {
    /// The run's buffers: at most 4, 32 MB in all, none over 16 MB (a rare large photo is not
    /// kept for the small ones after it). A file is read as another is stored, so a few spare
    /// ones serve; more only raised the run's peak memory.
    public static let shared = FileBuffers(keeping: 4, bytes: 32 << 20, largest: 16 << 20)

    private let free: Locked<[[UInt8]]>
    private let keeping: Int
    private let bytes: Int
    private let largest: Int

    public init(keeping: Int, bytes: Int, largest: Int) {
        self.free = Locked([])
        self.keeping = keeping
        self.bytes = bytes
        self.largest = largest
    }

    /// Gives a buffer back when the last copy of the value holding it goes away.
    public final class Lease: Sendable {
        private let buffer: [UInt8]
        private let owner: FileBuffers

        init(_ buffer: [UInt8], owner: FileBuffers) {
            self.buffer = buffer
            self.owner = owner
        }

        deinit { self.owner.giveBack(self.buffer) }
    }

    /// How many buffers wait to be reused, for tests.
    public var waiting: Int { self.free.withLock { $0.count } }

    /// `count` bytes to be written over, in a buffer of an earlier file when one is large enough
    /// (the smallest such); their contents are whatever was there. `fill` writes them; the array
    /// it leaves is returned with a ``Lease`` to keep beside it.
    public func take<Failure: Error>(
        count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) -> (bytes: [UInt8], lease: Lease) {
        var buffer =
            self.free.withLock { free -> [UInt8]? in
                let fitting = free.indices.filter { free[$0].capacity >= count }
                guard let best = fitting.min(by: { free[$0].capacity < free[$1].capacity }) else { return nil }
                return free.remove(at: best)
            } ?? []
        if buffer.capacity >= count {
            if buffer.count > count {
                buffer.removeLast(buffer.count - count)
            } else {
                // Within the capacity: no new memory, and the zeroes go on pages that are there.
                buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
            }
        } else {
            // UInt8 has no invalid values: what `fill` does not write is never read.
            buffer = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        }
        try buffer.withUnsafeMutableBufferPointer {
            (pointer: inout UnsafeMutableBufferPointer<UInt8>) throws(Failure) in
            try fill(pointer)
        }
        return (buffer, Lease(buffer, owner: self))
    }

    /// Keeps `buffer` for a later file, unless enough are kept or it is too large.
    func giveBack(_ buffer: [UInt8]) {
        guard buffer.capacity <= self.largest else { return }
        self.free.withLock { free in
            guard free.count < self.keeping,
                free.reduce(buffer.capacity, { $0 + $1.capacity }) <= self.bytes
            else { return }
            free.append(buffer)
        }
    }
}

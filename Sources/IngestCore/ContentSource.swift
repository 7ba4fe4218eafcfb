/// Reads the content of something with no file of its own (an entry of a zip file) at any
/// offset. Reading in order costs one pass; going back may cost reading again from the start.
/// Used from one thread at a time.
public protocol ContentReader: AnyObject {
    /// Fills up to `buffer.count` bytes from `offset`; fewer only at the end of the content.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(IngestError) -> Int
}

/// Content with no file of its own, and how to open it for reading: what a video inside a zip
/// file is stored, uploaded and decoded from, streamed, never held whole.
public struct ContentSource: Sendable {
    /// Its length in bytes.
    public let size: Int64
    /// Opens it afresh: each reader has its own position and buffers.
    public let open: @Sendable () throws(IngestError) -> any ContentReader

    public init(size: Int64, open: @escaping @Sendable () throws(IngestError) -> any ContentReader) {
        self.size = size
        self.open = open
    }
}

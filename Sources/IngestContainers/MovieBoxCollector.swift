import IngestCore

/// Follows the top-level boxes of an ISO base media file as its bytes stream past, and keeps the
/// contents of its `moov` box (the video's metadata), wherever in the file it sits, and of a
/// `meta` box beside it (where a Sony camera writes its XML): a video is read once, in order,
/// and never held.
///
/// A parser of untrusted bytes: sizes are checked against the file's size and each other; a box
/// that does not fit ends the walk, a `moov` larger than ``limit`` is not kept, and a `meta`
/// larger than ``metadataLimit`` is passed by.
public struct MovieBoxCollector: Sendable {
    /// The largest `moov` kept: its sample tables grow with the video's length (a few MB an hour).
    public static let limit = 64 << 20

    /// The file's size: a box may not pass it.
    private let fileSize: UInt64
    /// Where the next top-level box starts.
    private var next: UInt64 = 0
    /// The header of the box at ``next``, as far as it has arrived (8 bytes, or 16 for a 64-bit size).
    private var header: [UInt8] = []
    /// The largest `meta` kept: a camera's XML is a few kilobytes.
    public static let metadataLimit = 1 << 20

    /// Bytes of the box being collected still to come, while collecting one.
    private var remaining: UInt64 = 0
    private var collecting: Collected?

    private enum Collected {
        case movie, metadata
    }
    /// Set when a header does not make sense or a box does not fit: no further box is looked at.
    public private(set) var problem: String?
    /// The contents of `moov`, complete once ``isComplete``.
    public private(set) var movie: [UInt8] = []
    public private(set) var isComplete = false
    /// The contents of the first top-level `meta` box, once all of it has passed; else empty.
    public var metadata: [UInt8] { self.metadataComplete ? self.metadataBytes : [] }
    private var metadataBytes: [UInt8] = []
    private var sawMetadata = false
    private var metadataComplete = false

    public init(fileSize: UInt64) {
        self.fileSize = fileSize
    }

    /// Feeds the bytes that start at `offset` in the file; calls come in file order, without gaps.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) {
        var index = 0
        // Past `moov` the walk goes on, box header to box header: a `meta` may follow it.
        while index < bytes.count, self.problem == nil {
            let position = offset + UInt64(index)
            if let collecting = self.collecting {
                let take = Int(min(UInt64(bytes.count - index), self.remaining))
                let part = UnsafeRawBufferPointer(rebasing: bytes[index..<index + take])
                switch collecting {
                case .movie: self.movie.append(contentsOf: part)
                case .metadata: self.metadataBytes.append(contentsOf: part)
                }
                self.remaining -= UInt64(take)
                index += take
                if self.remaining == 0 {
                    self.collecting = nil
                    if collecting == .movie { self.isComplete = true } else { self.metadataComplete = true }
                }
                continue
            }
            if position < self.next {
                index += Int(min(self.next - position, UInt64(bytes.count - index)))
                continue
            }
            self.header.append(bytes[index])
            index += 1
            self.readHeader()
        }
    }

    /// Acts on the header once enough of it has arrived.
    private mutating func readHeader() {
        guard self.header.count >= 8 else { return }
        let size32 = self.header[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        if size32 == 1 && self.header.count < 16 { return }
        let type = String(String.UnicodeScalarView(self.header[4..<8].map { Unicode.Scalar($0) }))
        let headerSize: UInt64 = size32 == 1 ? 16 : 8
        let available = self.fileSize - min(self.next, self.fileSize)
        let size: UInt64 =
            switch size32 {
            case 0: available  // to the end of the file
            case 1: self.header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            default: size32
            }
        self.header.removeAll(keepingCapacity: true)
        guard size >= headerSize, size <= available else {
            self.problem = "the \(type.debugDescription) box at byte \(self.next) does not fit in the file"
            return
        }
        let contents = size - headerSize
        if type == "moov" && !self.isComplete && self.movie.isEmpty {
            guard contents <= UInt64(Self.limit) else {
                self.problem = "the moov box holds \(contents) bytes, over the limit of \(Self.limit)"
                return
            }
            self.movie.reserveCapacity(Int(contents))
            self.remaining = contents
            self.collecting = contents > 0 ? .movie : nil
            self.isComplete = contents == 0
        } else if type == "meta" && !self.sawMetadata {
            // Only the first: one too large to be a camera's is passed by, and none after it kept.
            self.sawMetadata = true
            if contents <= UInt64(Self.metadataLimit) {
                self.remaining = contents
                self.collecting = contents > 0 ? .metadata : nil
                self.metadataComplete = contents == 0
            }
        }
        self.next += size
    }
}

import Crypto
import Foundation
import IngestCore

/// A SHA-256 computed piece by piece as a file is read, so that hashing needs no second pass.
public struct ContentHasher {
    private var state = SHA256()

    public init() {}

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        self.state.update(bufferPointer: bytes)
    }

    public func finalize() -> ContentHash {
        ContentHash(digest: self.state.finalize())
    }

    /// The hash of bytes already in memory.
    public static func hash(_ bytes: some ContiguousBytes) -> ContentHash {
        var hasher = ContentHasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }
}

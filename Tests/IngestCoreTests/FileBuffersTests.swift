import IngestCore
import Testing

@Suite struct FileBuffersTests {
    /// The address of the array's storage.
    func address(_ bytes: [UInt8]) -> UnsafeRawPointer? {
        bytes.withUnsafeBytes { $0.baseAddress }
    }

    @Test("A buffer comes back when its lease goes, and the next file of no larger size is read into it")
    func aBufferIsReusedOnceLetGo() {
        let buffers = FileBuffers(keeping: 4, bytes: 1 << 20, largest: 1 << 20)
        var first: (bytes: [UInt8], lease: FileBuffers.Lease)? = buffers.take(count: 1_000) { $0.update(repeating: 1) }
        let storage = first.map { self.address($0.bytes) }
        #expect(buffers.waiting == 0)
        first = nil
        #expect(buffers.waiting == 1)
        let second = buffers.take(count: 600) { $0.update(repeating: 2) }
        #expect(self.address(second.bytes) == storage)
        #expect(second.bytes == [UInt8](repeating: 2, count: 600))
        #expect(buffers.waiting == 0)
    }

    @Test("A buffer still shared when it is reused is copied first: the copy kept elsewhere keeps its bytes")
    func aSharedBufferIsNeverWrittenUnderItsHolder() {
        let buffers = FileBuffers(keeping: 4, bytes: 1 << 20, largest: 1 << 20)
        var first: (bytes: [UInt8], lease: FileBuffers.Lease)? = buffers.take(count: 1_000) { $0.update(repeating: 1) }
        let kept = first?.bytes ?? []
        first = nil
        let second = buffers.take(count: 1_000) { $0.update(repeating: 2) }
        #expect(kept == [UInt8](repeating: 1, count: 1_000))
        #expect(second.bytes == [UInt8](repeating: 2, count: 1_000))
        #expect(self.address(second.bytes) != self.address(kept))
    }

    @Test("Only so many buffers, so many bytes in all, and none too large are kept")
    func keptBuffersAreBounded() {
        // Three of 3,000 bytes given back: the third would pass the 7,000 bytes.
        let buffers = FileBuffers(keeping: 3, bytes: 7_000, largest: 6_000)
        var leases = (0..<3).map { _ in buffers.take(count: 3_000) { $0.update(repeating: 0) } }
        leases.removeAll()
        #expect(buffers.waiting == 2)
        _ = buffers.take(count: 3_000) { _ in }
        _ = buffers.take(count: 3_000) { _ in }
        #expect(buffers.waiting == 2)
        _ = buffers.take(count: 7_000) { _ in }
        #expect(buffers.waiting == 2)
    }

    @Test("A fill that fails keeps nothing and says why")
    func aFailedFillThrows() {
        struct Failed: Error {}
        let buffers = FileBuffers(keeping: 2, bytes: 10_000, largest: 6_000)
        #expect(throws: Failed.self) { _ = try buffers.take(count: 100) { (_) throws(Failed) in throw Failed() } }
        #expect(buffers.waiting == 0)
    }
}

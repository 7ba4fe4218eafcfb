import IngestCore
import IngestDiscovery
import Testing

@testable import IngestDestinations

@Suite struct LoadedFileTests {
    /// A photo of 4 KiB read into a buffer of `buffers`, its lease held by the file alone.
    static func loaded(from buffers: FileBuffers) -> LoadedFile {
        let taken = buffers.take(count: 4_096) { $0.update(repeating: 9) }
        var file = LoadedFile(
            file: DiscoveredFile(
                path: "/photos/a.jpg", stamp: FileStamp(size: 4_096, modifiedNanoseconds: 0, inode: 1)),
            kind: .jpeg, bytes: taken.bytes, hash: ContentHash(digest: [UInt8](repeating: 0, count: 32)),
            readSeconds: 0, hashSeconds: 0)
        file.lease = taken.lease
        return file
    }

    @Test("Letting go of a photo's bytes empties them and gives their buffer back once no copy holds it")
    func releasedBytesGoBackToTheirBuffers() {
        let buffers = FileBuffers(keeping: 4, bytes: 1 << 20, largest: 1 << 20)
        var file = Self.loaded(from: buffers)
        var copy: LoadedFile? = file
        file.releaseBytes()
        #expect(file.bytes.isEmpty && file.lease == nil)
        // Another copy of the file still holds them.
        #expect(buffers.waiting == 0)
        #expect(copy?.bytes.count == 4_096)
        copy = nil
        #expect(buffers.waiting == 1)
    }
}

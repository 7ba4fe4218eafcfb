import IngestCore
import Testing

@testable import IngestDiscovery

@Suite struct AttachmentsTests {
    let stamp = FileStamp(size: 1, modifiedNanoseconds: 2, inode: 3)

    @Test("Nothing to attach is no box; a file's sidecar set and cleared again leaves a plain file")
    func emptyIsNil() {
        #expect(Attachments.of(sidecar: nil, member: nil, note: nil) == nil)
        #expect(Attachments.of(sidecar: nil, member: nil, note: "read") != nil)
        var file = DiscoveredFile(path: "/a.jpg", stamp: self.stamp)
        let plain = file
        file.sidecar = Sidecar(path: "/a.xmp", stamp: self.stamp)
        #expect(file != plain && file.sidecar?.path == "/a.xmp" && file.member == nil)
        file.sidecar = nil
        #expect(file == plain)
    }

    @Test("Files compare by what is attached, not by which box holds it")
    func equalByValue() {
        let one = DiscoveredFile(path: "/a.jpg", stamp: self.stamp, sidecar: Sidecar(path: "/a.xmp", stamp: self.stamp))
        let two = DiscoveredFile(path: "/a.jpg", stamp: self.stamp, sidecar: Sidecar(path: "/a.xmp", stamp: self.stamp))
        let other = DiscoveredFile(
            path: "/a.jpg", stamp: self.stamp, sidecar: Sidecar(path: "/b.xmp", stamp: self.stamp))
        #expect(one == two)
        #expect(one != other)
    }
}

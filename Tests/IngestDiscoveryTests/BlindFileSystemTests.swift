import Foundation
import IngestDiscovery
import IngestTesting
import Testing

/// Where inotify is blind: a FUSE mount is (bindfs here, as for a share), a local folder is not.
@Suite struct BlindFileSystemTests {
    @Test("A local folder is not blind; a FUSE mount is, by name; a path that is not there says nothing")
    func fileSystems() throws {
        let folder = TemporaryFolder("blind")
        #expect(BlindFileSystem.name(at: folder.url.path) == nil)
        #expect(BlindFileSystem.name(at: folder.appending("absent").path) == nil)
        let (under, share) = (folder.appending("under"), folder.appending("share"))
        for path in [under, share] {
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        }
        let mount = try BindMount(under, at: share)
        defer { mount.unmount() }
        #expect(BlindFileSystem.name(at: share.path) == "FUSE")
    }
}

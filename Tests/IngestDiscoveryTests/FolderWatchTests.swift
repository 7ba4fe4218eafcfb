import Foundation
import IngestTesting
import Testing

@testable import IngestDiscovery

/// What inotify reports of a watched folder, and the walk's rules applied to what a watch follows.
@Suite struct FolderWatchTests {
    let folder = TemporaryFolder("folder-watch")

    /// The events after `body`, once the kernel has queued them.
    func events(_ watch: FolderWatch, after body: () throws -> Void) throws -> [FolderWatch.Event] {
        try body()
        var events: [FolderWatch.Event] = []
        for _ in 0..<20 {
            usleep(20_000)
            events += watch.events()
        }
        return events
    }

    @Test("Closed, written, moved in, folders appearing and going, as inotify says them")
    func events() throws {
        let root = Discovery.WatchedFolder(root: self.folder.url.path)
        let watch = try FolderWatch()
        #expect(watch.add(root) == nil)
        #expect(watch.isWatched(root.path))
        let written = try self.events(watch) { try self.folder.write("a.jpg") }
        #expect(written.contains(.entry(.written("a.jpg"), in: root)))
        #expect(written.last == .entry(.closed("a.jpg"), in: root))

        let elsewhere = TemporaryFolder("folder-watch-elsewhere")
        try Data("y".utf8).write(to: elsewhere.appending("b.jpg"))
        let moved = try self.events(watch) {
            try FileManager.default.moveItem(at: elsewhere.appending("b.jpg"), to: self.folder.appending("b.jpg"))
            try FileManager.default.createDirectory(
                at: self.folder.appending("sub"), withIntermediateDirectories: false)
            try FileManager.default.removeItem(at: self.folder.appending("a.jpg"))
        }
        #expect(
            moved == [
                .entry(.closed("b.jpg"), in: root), .entry(.folderAppeared("sub"), in: root),
                .entry(.removed("a.jpg"), in: root),
            ])

        let sub = Discovery.WatchedFolder(root: self.folder.appending("sub").path)
        #expect(watch.add(sub) == nil)
        let gone = try self.events(watch) { try FileManager.default.removeItem(at: self.folder.appending("sub")) }
        #expect(gone.contains(.folderGone(sub)))
        #expect(!watch.isWatched(sub.path), "the watch of a folder gone is dropped")
        #expect(watch.add(Discovery.WatchedFolder(root: self.folder.appending("none").path)) == ENOENT)
    }

    @Test("A watch follows the folders the walk enters, and hands on what the walk would")
    func walkRules() throws {
        try self.folder.write("IMG_1.jpg")
        try self.folder.write("IMG_1.MOV")
        try self.folder.write("IMG_1.xmp", "<x:xmpmeta xmlns:x='adobe:ns:meta/'/>")
        try self.folder.write("IMG_2.jpg")
        try self.folder.write(".hidden/c.jpg")
        try self.folder.write("@eaDir/d.jpg")
        try self.folder.write("kept/e.jpg")
        try self.folder.write("ignored/f.jpg")
        try self.folder.write(".photoingestignore", "ignored\n")
        let discovery = Discovery(roots: [self.folder.url.path], includeHidden: false)
        let root = Discovery.WatchedFolder(root: self.folder.url.path)
        let folders = discovery.folders(from: root)
        #expect(folders.map(\.folder.path).sorted() == [root.path, root.path + "/kept"])
        #expect(
            folders.first { $0.folder.path == root.path }?.files.map(\.path).sorted()
                == ["IMG_1.MOV", "IMG_1.jpg", "IMG_2.jpg"].map { root.path + "/" + $0 })
        #expect(discovery.subfolder("kept", of: root)?.path == root.path + "/kept")
        #expect(discovery.subfolder("ignored", of: root) == nil)
        #expect(discovery.subfolder(".hidden", of: root) == nil)
        #expect(discovery.subfolder("@eaDir", of: root) == nil)

        // The clip arrived: the still that shares its name comes too, with its sidecar; IMG_2 does not.
        let items = discovery.items(named: ["IMG_1.MOV"], in: root)
        #expect(items.compactMap(\.file?.path) == [root.path + "/IMG_1.MOV", root.path + "/IMG_1.jpg"])
        #expect(items.compactMap(\.file).first { $0.path.hasSuffix(".jpg") }?.sidecar != nil)
        #expect(discovery.items(named: ["kept"], in: root).isEmpty, "a folder is the watch's to follow")
    }

    @Test("An arrival among many files brings its partner and its sidecar; in a Takeout, its JSON of another name")
    func arrivalAmongMany() throws {
        for index in 0..<300 { try self.folder.write("hot/IMG_1\(index).jpg") }
        try self.folder.write("hot/IMG_1.jpg")
        try self.folder.write("hot/IMG_1.jpg.xmp", "<x:xmpmeta xmlns:x='adobe:ns:meta/'/>")
        try self.folder.write("hot/img_1.CR2")
        try self.folder.write("hot/IMG_1 copy.jpg")
        let discovery = Discovery(roots: [self.folder.url.path], includeHidden: false)
        let hot = Discovery.WatchedFolder(root: self.folder.appending("hot").path)
        let items = discovery.items(named: ["IMG_1.jpg"], in: hot)
        #expect(items.compactMap(\.file?.path) == ["IMG_1.jpg", "img_1.CR2"].map { hot.path + "/" + $0 })
        #expect(items.compactMap(\.file).first?.sidecar?.path == hot.path + "/IMG_1.jpg.xmp")
        #expect(items.compactMap(\.file).last?.sidecar == nil, "IMG_1.jpg.xmp is IMG_1.jpg's alone")

        // A name beyond ASCII that Unicode makes one with an ASCII one (a Kelvin sign is a K):
        // the sidecar still comes.
        try self.folder.write("hot/IMG_\u{212A}.jpg")
        try self.folder.write("hot/IMG_K.xmp", "<x:xmpmeta xmlns:x='adobe:ns:meta/'/>")
        let kelvin = discovery.items(named: ["IMG_\u{212A}.jpg"], in: hot).compactMap(\.file)
        #expect(kelvin.first?.sidecar?.path == hot.path + "/IMG_K.xmp")

        // Takeout names a numbered copy's JSON after the original (`IMG_5.jpg(1).json`).
        try self.folder.write("Takeout/Google Photos/Trip/IMG_5(1).jpg")
        try self.folder.write("Takeout/Google Photos/Trip/IMG_5.jpg(1).json", "{}")
        try self.folder.write("Takeout/Google Photos/Trip/IMG_6.jpg")
        let trip = Discovery.WatchedFolder(root: self.folder.appending("Takeout/Google Photos/Trip").path)
        let copy = discovery.items(named: ["IMG_5(1).jpg"], in: trip).compactMap(\.file)
        #expect(copy.map(\.path) == [trip.path + "/IMG_5(1).jpg"])
        #expect(copy.first?.sidecar?.path == trip.path + "/IMG_5.jpg(1).json")
    }
}

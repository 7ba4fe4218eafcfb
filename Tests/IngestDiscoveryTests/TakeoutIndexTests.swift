import Foundation
import IngestContainers
import Testing

@testable import IngestDiscovery

@Suite struct TakeoutIndexTests {
    static func entry(_ name: String) -> ZipEntry {
        ZipEntry(name: name, method: 0, crc32: 1, compressedSize: 1, size: 1, localHeaderOffset: 0, modifiedSeconds: 0)
    }

    @Test("A folder's files pair with JSONs in any part; only Takeout folders are kept; a part is indexed once")
    func parts() {
        var index = TakeoutIndex()
        let folder = "Takeout/Google Photos/Photos from 2019"
        index.add(
            "/x/part-1.zip",
            entries: [
                Self.entry(folder + "/"), Self.entry(folder + "/A.jpg"), Self.entry(folder + "/B.jpg"),
                Self.entry("Takeout/archive_browser.html"), Self.entry("Other/C.jpg"), Self.entry("Other/C.jpg.json"),
            ])
        index.add(
            "/x/part-2.zip", entries: [Self.entry(folder + "/A.jpg.json"), Self.entry(folder + "/lost.jpg.json")])
        index.add("/x/part-2.zip", entries: [Self.entry(folder + "/A.jpg.json")])
        #expect(index.folders.keys.sorted() == [folder, "Takeout"].sorted())
        #expect(index.folders[folder]?.jsons.count == 2)
        let pairs = index.pairs(in: folder)
        #expect(pairs.byMedia.mapValues(\.json.path) == ["A.jpg": "/x/part-2.zip/\(folder)/A.jpg.json"])
        #expect(pairs.byMedia["A.jpg"]?.rule == .name)
        #expect(pairs.taken == ["/x/part-2.zip/\(folder)/A.jpg.json"])
        #expect(index.pairs(in: "Other").byMedia.isEmpty)
    }
}

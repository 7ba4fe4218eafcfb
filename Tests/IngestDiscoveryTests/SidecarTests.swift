import AsyncAlgorithms
import Foundation
import IngestCore
import IngestTesting
import Testing

@testable import IngestDiscovery

@Suite struct SidecarTests {
    @Test("NAME.EXT.xmp belongs to NAME.EXT; NAME.xmp to every NAME.* without one of its own; any case")
    func owners() {
        let names = [
            "A.CR2", "A.JPG", "A.xmp", "B.NEF", "B.NEF.xmp", "B.jpg", "C.ORF", "c.orf.XMP", "D.xmp", "E.JPG", "e.XMP",
            "notes.txt", ".xmp",
        ]
        let owners = Sidecar.owners(in: names).map { (names[$0.key], names[$0.value]) }
        #expect(
            Dictionary(uniqueKeysWithValues: owners) == [
                "A.CR2": "A.xmp", "A.JPG": "A.xmp", "B.NEF": "B.NEF.xmp", "C.ORF": "c.orf.XMP", "E.JPG": "e.XMP",
            ])
        #expect(Sidecar.owners(in: ["a.jpg", "b.jpg"]).isEmpty)
        #expect(Sidecar.isSidecar("IMG_1.XmP") && !Sidecar.isSidecar(".xmp") && !Sidecar.isSidecar("IMG_1.xmp.jpg"))
    }

    @Test("The walk gives each file its sidecar, takes the sidecar off the list, and reports one without a file")
    func walk() async throws {
        let folder = TemporaryFolder("sidecar-walk")
        for name in ["IMG_1.CR2", "IMG_1.JPG", "IMG_1.xmp", "IMG_2.NEF", "IMG_2.NEF.XMP", "IMG_3.jpg", "lost.xmp"] {
            try Data("x".utf8).write(to: folder.appending(name))
        }
        let channel = AsyncChannel<DiscoveryBatch>()
        let discovery = Discovery(roots: [folder.path], includeHidden: false)
        async let tally = discovery.walk(into: channel, shouldStop: { false })
        var items: [DiscoveryItem] = []
        for await batch in channel { items += batch.items }
        let sidecars = Dictionary(
            uniqueKeysWithValues: items.compactMap(\.file).map {
                (
                    ($0.path as NSString).lastPathComponent,
                    $0.sidecar.map { ($0.path as NSString).lastPathComponent } ?? "none"
                )
            })
        #expect(
            sidecars == [
                "IMG_1.CR2": "IMG_1.xmp", "IMG_1.JPG": "IMG_1.xmp", "IMG_2.NEF": "IMG_2.NEF.XMP", "IMG_3.jpg": "none",
            ])
        let problems = items.compactMap { item -> String? in
            guard case .problem(let path, let status, let reason) = item else { return nil }
            return "\((path as NSString).lastPathComponent) \(status.rawValue): \(reason)"
        }
        #expect(problems == ["lost.xmp skipped: an XMP sidecar with no photo or video of its name beside it"])
        #expect(await tally.sidecars == 3)

        // A file given by itself finds its sidecar too.
        let alone = Discovery(roots: [folder.appending("IMG_2.NEF").path], includeHidden: false)
        let single = AsyncChannel<DiscoveryBatch>()
        async let done = alone.walk(into: single, shouldStop: { false })
        var found: [DiscoveredFile] = []
        for await batch in single { found += batch.items.compactMap(\.file) }
        _ = await done
        #expect(found.map { $0.sidecar?.path } == [folder.appending("IMG_2.NEF.XMP").path])
    }
}

import Foundation
import IngestCore
import IngestOutcome
import IngestPipeline
import IngestTesting
import Testing

/// An iCloud Photos export through the built binary: its `Photo Details.csv` files date the
/// files that have no time of their own, to the minute; the bin is left out; a zip of the export
/// gives the same outcomes.
@Suite struct ICloudRunTests {
    @Test("An iCloud export, as a folder and as a zip: EXIF-less files dated to the minute by their CSV row")
    func export() throws {
        let work = TemporaryFolder("icloud-run")
        let real = TestEnvironment.realCorpus.appendingPathComponent("jpeg")
        let photos = Self.cameras.map { real.appendingPathComponent($0) }
        let export = work.appending("export")
        let folder = export.appendingPathComponent("iCloud Photos/Photos")
        try FileManager.default.createDirectory(
            at: export.appendingPathComponent("iCloud Photos/Recently Deleted"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Shared and saved images carry no EXIF: the CSV's row is their only time.
        for (index, name) in ["IMG_0001.JPG", "IMG_0003.JPG", "IMG 0004, copy.JPG"].enumerated() {
            try Fixtures.check(
                runProgram(
                    "exiftool", ["-q", "-all=", "-o", folder.appendingPathComponent(name).path, photos[index].path]))
        }
        try FileManager.default.copyItem(at: photos[3], to: folder.appendingPathComponent("IMG_0002.JPG"))
        try FileManager.default.copyItem(
            at: photos[4], to: export.appendingPathComponent("iCloud Photos/Recently Deleted/IMG_0009.JPG"))
        let header = "imgName,fileChecksum,favorite,hidden,deleted,originalCreationDate,viewCount,importDate\n"
        try Data(
            (header
                + "IMG_0001.JPG,AQ1,no,no,no,Saturday June 4,2022 12:11 PM GMT,3,Saturday June 4,2022 12:15 PM GMT\n"
                + "IMG_0002.JPG,AQ2,no,no,no,Monday January 1,2024 9:30 AM GMT,0,Monday January 1,2024 9:31 AM GMT\n")
                .utf8
        ).write(to: folder.appendingPathComponent("Photo Details.csv"))
        try Data((header + "\"IMG 0004, copy.JPG\",AQ4,yes,no,no,\"Sunday December 31,2023 11:59 PM GMT\",1,\n").utf8)
            .write(to: folder.appendingPathComponent("Photo Details-1.csv"))
        let zip = work.appending("iCloud Photos Part 1 of 1.zip")
        let files = TestEnvironment.files(under: export).map {
            (String($0.path.dropFirst(export.path.count + 1)), $0)
        }
        try ZipRunTests.zip(files, to: zip)

        let options = ["--timezone", "UTC"]
        let fromFolder = try CommandLine("icloud-folder").ingest([export], options)
        let fromZip = try CommandLine("icloud-zip").ingest([zip], options)
        for run in [fromFolder, fromZip] {
            #expect(run.status == 0, "\(run.result.stderr)")
            let listing = run.entries.map { "\($0.path) \($0.status) \($0.captureSource ?? "") \($0.reason ?? "")" }
            let first = try #require(run.entry(named: "IMG_0001.JPG"), "\(listing)")
            #expect(first.captureSource == "icloud-csv")
            #expect(first.captureTime.flatMap(TakeoutRunTests.instant) == Date(timeIntervalSince1970: 1_654_344_660))
            #expect(first.icloudCSV?.hasSuffix("Photos/Photo Details.csv") == true)
            let quoted = try #require(run.entry(named: "IMG 0004, copy.JPG"))
            #expect(quoted.captureSource == "icloud-csv")
            #expect(quoted.captureTime.flatMap(TakeoutRunTests.instant) == Date(timeIntervalSince1970: 1_704_067_140))
            // The camera's own time wins over the CSV's minute.
            #expect(run.entry(named: "IMG_0002.JPG")?.captureSource == "exif-assumed-zone")
            // No row: dated as any file is (only its mtime: undated for a window, stored here).
            #expect(run.entry(named: "IMG_0003.JPG")?.captureSource == "file-mtime")
            #expect(run.entry(named: "IMG_0009.JPG") == nil)
            #expect(run.summary?.excluded["Recently Deleted"] == 1)
            #expect(run.summary?.icloud == ICloudCounts(dated: 3, withoutRow: 1), "\(listing)")
            #expect(
                run.entry(named: "Photo Details.csv")?.reason?.contains("read for the times of the 2 files") == true)
        }
        for entry in fromFolder.entries where entry.sha256 != nil {
            let name = (entry.path as NSString).lastPathComponent
            let zipped = try #require(fromZip.entry(named: name))
            #expect(zipped.sha256 == entry.sha256 && zipped.captureSource == entry.captureSource, "\(name)")
            if entry.captureSource != "file-mtime" { #expect(zipped.captureTime == entry.captureTime, "\(name)") }
        }
    }

    static let cameras = TakeoutRunTests.cameras
}

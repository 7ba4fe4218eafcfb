import Foundation
import IngestApp
import IngestCore
import IngestHashing
import IngestTesting
import Testing

/// `--shard-plan`: shards drawn by size, so that an import with videos gives each shard about the
/// same bytes, and every file still falls in exactly one shard.
@Suite struct ShardPlanRunTests {
    let cli = CommandLine("shard-plan")
    var state: URL { self.cli.folder.appending("state") }
    var plan: String { self.state.appendingPathComponent("plan.json").path }

    /// A video of about a megabyte a second (noise does not compress).
    func video(_ name: String, seconds: Int, in folder: URL) throws {
        try Fixtures.check(
            runProgram(
                "ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=s=320x240:d=\(seconds):r=10,noise=alls=60:allf=t",
                    "-c:v", "mpeg4", "-q:v", "2", folder.appendingPathComponent(name).path,
                ]))
    }

    /// Runs shard `index` of `count` with the plan; its status, standard error and report lines.
    func shard(_ index: Int, of count: Int, _ photos: URL) throws -> (ProcessResult, [FileLine]) {
        let report = self.cli.folder.appending("report-\(index)-\(UUID().uuidString.prefix(4)).ndjson")
        let result = try self.cli.run([
            "run", photos.path, "--event", "Trip", "--timezone", "UTC", "--undated", "mtime", "--archive",
            self.cli.archive.path, "--catalog", self.state.appendingPathComponent("catalog-\(index).sqlite").path,
            "--shard", "\(index)/\(count)", "--shard-plan", self.plan, "--report", report.path,
        ])
        let lines = ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONDecoder().decode(FileLine.self, from: Data($0.utf8))
        }
        return (result, lines)
    }

    @Test(
        "Four shards by one plan: each gets the bytes the plan gives it, every file once; a file added later goes by its hash"
    )
    func fourShards() throws {
        let photos = try Fixtures.corpus(count: 24, seed: 41, megapixels: 0.2, in: self.cli.folder)
        for (index, seconds) in [1, 2, 3, 4, 5, 6].enumerated() {
            try self.video("VID_000\(index).mp4", seconds: seconds, in: photos)
        }
        let files = try FileManager.default.subpathsOfDirectory(atPath: photos.path).filter {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: photos.appendingPathComponent($0).path, isDirectory: &isFolder)
            return !isFolder.boolValue
        }

        var taken: [String: Int] = [:]
        var bytes = [Int64](repeating: 0, count: 4)
        for index in 0..<4 {
            let (result, lines) = try self.shard(index, of: 4, photos)
            #expect(result.status == 0, "\(result.stderr.suffix(1_500))")
            // The first shard draws the plan; the others read it.
            let said = index == 0 ? "(drawn now)" : "(read, drawn 20"
            #expect(result.stderr.contains("Shard plan \(self.plan) \(said)"), "\(result.stderr)")
            for line in lines {
                #expect(taken[line.path] == nil, "\(line.path) is in shards \(taken[line.path]!) and \(index)")
                taken[line.path] = index
                bytes[index] += Int64(try FileManager.default.attributesOfItem(atPath: line.path)[.size] as! Int)
            }
        }
        #expect(Set(taken.keys) == Set(files.map { photos.appendingPathComponent($0).path }))
        let plan = try JSONDecoder().decode(ShardPlan.self, from: Data(contentsOf: URL(fileURLWithPath: self.plan)))
        #expect(plan.loads == bytes, "the shards took other files than the plan gave them")
        #expect(plan.spread < 1.1, "\(plan.loads)")
        // A video's shard is the plan's.
        for index in 0..<6 {
            #expect(taken[photos.appendingPathComponent("VID_000\(index).mp4").path] == plan.placed["vid_000\(index)"])
        }

        // A file added after the plan: in exactly one shard, its hash's; the rest unchanged.
        try self.video("VID_0100.mp4", seconds: 1, in: photos)
        var added: [Int] = []
        for index in 0..<4 {
            let (result, lines) = try self.shard(index, of: 4, photos)
            #expect(result.status == 0, "\(result.stderr.suffix(1_500))")
            #expect(result.stderr.contains("(read, drawn"))
            #expect(lines.filter { $0.status == .uploaded }.map(\.path).allSatisfy { $0.hasSuffix("/VID_0100.mp4") })
            if lines.contains(where: { $0.path.hasSuffix("/VID_0100.mp4") }) { added.append(index) }
        }
        #expect(added == [Shard.of(relativePath: "vid_0100", count: 4)])

        // The plan is for four shards: a two-way run with it is refused, before any file is read.
        let (wrong, lines) = try self.shard(0, of: 2, photos)
        #expect(wrong.status != 0 && lines.isEmpty)
        #expect(wrong.stderr.contains("was drawn for 4 shards, and this run is one of 2"), "\(wrong.stderr)")
    }
}

import Foundation
import IngestApp
import IngestCore
import IngestHashing
import IngestTesting
import Testing

@Suite struct ShardPlanFileTests {
    let folder = TemporaryFolder("shard-plan")
    let sizes: [String: Int64] = ["a/video": 900, "a/img_1": 10, "a/img_2": 12, "b/clip": 700, "b/img_3": 9]

    var file: ShardPlanFile { ShardPlanFile(path: self.folder.appending("plan.json").path) }

    @Test("The first shard draws the plan and writes it; the others and every re-run read it, drawing nothing")
    func drawnOnce() throws {
        let (first, drawn) = try self.file.plan(count: 2) { self.sizes }
        #expect(drawn && first.placed["a/video"] != first.placed["b/clip"])
        #expect(first.drawnAt != nil)
        let (again, drawnAgain) = try self.file.plan(count: 2) {
            Issue.record("drew a plan that was there")
            return [:]
        }
        #expect(!drawnAgain && again == first)
        #expect(
            ShardPlanFile.line(again, path: "plan.json", drawn: false).hasPrefix("Shard plan plan.json (read, drawn 20")
        )
        // Nothing of the drawing is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: self.folder.path) == ["plan.json"])
    }

    @Test("Two shards drawing at once: the one that writes second takes the first one's plan")
    func drawnByAnother() throws {
        let theirs = ShardPlan(sizes: ["x": 5, "y": 5], count: 2)
        let (plan, drawn) = try self.file.plan(count: 2) {
            // Another shard writes its plan while this one is looking at the files.
            try? CompactJSON.data(theirs).write(to: URL(fileURLWithPath: self.file.path))
            return self.sizes
        }
        #expect(!drawn && plan == theirs)
    }

    @Test(
        "A plan for another number of shards, or a file that is no plan, is refused; a stopped drawing writes nothing")
    func refused() throws {
        _ = try self.file.plan(count: 8) { self.sizes }
        do {
            _ = try self.file.plan(count: 4) { self.sizes }
            Issue.record("a plan for 8 shards was taken for 4")
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains("was drawn for 8 shards, and this run is one of 4"))
        }
        let other = ShardPlanFile(path: self.folder.appending("notes.json").path)
        try Data(#"{"hello": 1}"#.utf8).write(to: URL(fileURLWithPath: other.path))
        #expect(throws: IngestError.self) { _ = try other.plan(count: 4) { self.sizes } }

        let stopped = ShardPlanFile(path: self.folder.appending("stopped.json").path)
        do {
            _ = try stopped.plan(count: 4) { nil }
            Issue.record("a stopped drawing gave a plan")
        } catch {
            #expect(error.code == .stopped)
        }
        #expect(!FileManager.default.fileExists(atPath: stopped.path))
    }
}

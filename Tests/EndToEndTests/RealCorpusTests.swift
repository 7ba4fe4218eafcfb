import Foundation
import IngestTesting
import Testing

/// The built command over `../shared/corpus/real`: real cameras' and phones' files, and broken ones.
@Suite struct RealCorpusTests {
    @Test("Every file ends with exactly one outcome, broken ones failed with a reason, and nothing crashes")
    func everyFileAccountedFor() throws {
        let corpus = TestEnvironment.realCorpus
        let files = TestEnvironment.files(under: corpus)
        try #require(files.count > 100, "the shared corpus is missing at \(corpus.path)")
        let cli = CommandLine("real")
        let run = try cli.ingest([corpus])

        #expect(run.status == 1, "some broken files must fail: \(run.result.stderr.suffix(2_000))")
        #expect(run.entries.count == files.count)
        #expect(Set(run.entries.compactMap { $0["path"] as? String }) == Set(files.map(\.path)))
        let counts = ["uploaded", "duplicate", "outside", "failed", "skipped"].map(run.count)
        #expect(counts.reduce(0, +) == files.count)
        for entry in run.entries {
            let status = entry["status"] as? String
            if status == "failed" {
                #expect((entry["error"] as? String)?.isEmpty == false, "\(entry)")
            }
            if status == "skipped" {
                #expect((entry["reason"] as? String)?.isEmpty == false, "\(entry)")
            }
        }
        // Every real camera JPEG is ingested; only the deliberately broken files fail.
        for entry in run.entries where (entry["path"] as? String)?.contains("/jpeg/") == true {
            #expect(entry["status"] as? String == "uploaded", "\(entry)")
            #expect(entry["captureSource"] is String)
        }
        #expect(run.entries.filter { $0["status"] as? String == "failed" }.allSatisfy {
            let path = $0["path"] as? String ?? ""
            return path.contains("/broken/") || path.contains("/heic/")
        })
        // HEIC from an iPhone: the offset the phone wrote.
        let iphone = try #require(run.entry(named: "IMG_2927.HEIC"))
        #expect(iphone["captureSource"] as? String == "exif-offset")
        #expect(iphone["captureTime"] as? String == "2020-05-04T22:39:11.644Z")

        // The run after it reads only the failed files again.
        let again = try cli.ingest([corpus])
        #expect(again.count("failed") == run.count("failed"))
        #expect((again.stages["read"] as? [String: Any])?["count"] as? Int == run.count("failed"))
    }
}

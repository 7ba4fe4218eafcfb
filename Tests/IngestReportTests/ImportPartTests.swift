import IngestReport
import Testing

@Suite struct ImportPartTests {
    @Test("Each state is said in words, with the shard and catalog first; only a finished part is counted")
    func lines() {
        var part = ImportPart(catalog: "/s/catalog-1.sqlite", shard: "1/4", state: .finished)
        part.run = 3
        part.startedAt = "2026-11-27T10:15:00Z"
        #expect(part.line == "Shard 1 of 4, /s/catalog-1.sqlite: finished (run 3, begun 2026-11-27 10:15 UTC)")
        #expect(part.counted)
        part.state = .running
        part.runningIn = "the photoingest run with pid 12, started 2026-11-27T10:15:00Z,"
        #expect(
            part.line.hasPrefix("Shard 1 of 4, /s/catalog-1.sqlite: still running in the photoingest run with pid 12"))
        #expect(!part.counted)
        part.state = .unfinished
        #expect(part.line.contains("did not finish (the run begun 2026-11-27 10:15 UTC left no summary)"))
        #expect(
            ImportPart(catalog: nil, shard: "2/4", state: .notRun).line
                == "Shard 2 of 4: has not run, or its catalog was not given")
        #expect(ImportPart(catalog: "/c.sqlite", shard: nil, state: .empty).line == "/c.sqlite: records no run")
    }
}

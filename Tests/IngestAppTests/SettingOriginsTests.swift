import Configuration
import Foundation
import IngestApp
import IngestTesting
import Testing

@Suite struct SettingOriginsTests {
    @Test("Each setting is named where it was given: its flag, its variable, or its key in the file")
    func namesEachOrigin() async throws {
        let folder = TemporaryFolder("origins")
        let file = folder.appending("config.yaml")
        try Data("from: 2025-09-27\nuntil: 2025-09-28\nevent: Party\n".utf8).write(to: file)
        let settings = try await Settings.resolve(
            given: ["jobs": .int(2)], configPath: file.path, environment: ["PHOTOINGEST_TIMEZONE": "UTC"])
        let origins = settings.origins
        #expect(origins.name("jobs") == "--jobs")
        #expect(origins.name("timezone") == "PHOTOINGEST_TIMEZONE")
        #expect(origins.name("from") == "from in \(file.path)")
        // Never given: named by its flag.
        #expect(origins.name("shard") == "--shard")
        // Those of one file together, the others apart.
        #expect(origins.naming(["jobs", "from", "until"]) == "--jobs and from and until in \(file.path)")
        #expect(origins.naming(["timezone", "jobs", "shard"]) == "PHOTOINGEST_TIMEZONE, --jobs and --shard")
    }

    @Test("An empty value given above the file clears the file's value")
    func emptyClears() async throws {
        let folder = TemporaryFolder("origins-empty")
        let file = folder.appending("config.yaml")
        try Data("from: 2025-09-27\nserver: https://photoshare.example.com\n".utf8).write(to: file)
        let settings = try await Settings.resolve(
            given: ["from": .string("")], configPath: file.path, environment: ["PHOTOINGEST_SERVER": ""])
        #expect(settings.from == nil)
        #expect(settings.connection.serverURL == nil)
    }
}

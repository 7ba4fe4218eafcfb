import Configuration
import Foundation
import IngestApp
import IngestDiscovery
import IngestTesting
import Testing

/// Settings resolved in process: one precedence for every setting, each checked as declared.
@Suite struct SettingsTests {
    let folder = TemporaryFolder("settings")

    /// A config file holding `text`, named with `ending` (yaml or toml).
    func file(_ text: String, ending: String = "yaml") throws -> String {
        let url = self.folder.appending("config.\(ending)")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func resolve(
        _ given: [String: ConfigContent] = [:], file: String? = nil, environment: [String: String] = [:]
    ) async throws -> Settings {
        try await Settings.resolve(given: given, configPath: file, environment: environment)
    }

    /// `config show`'s value and source of `key`.
    func shown(_ settings: Settings, _ key: String) -> (value: String, source: String)? {
        settings.shown.first { $0.key == key }.map { ($0.value, $0.source) }
    }

    @Test("A flag wins over PHOTOINGEST_<OPTION>, which wins over the file, which wins over the default")
    func precedence() async throws {
        let file = try self.file("jobs: 3\nnear-edge: 10\nmax-pixels: 5000000\ninclude-hidden: true\nevent: Party\n")
        let settings = try await self.resolve(
            ["near-edge": .int(30)], file: file, environment: ["PHOTOINGEST_NEAR_EDGE": "20", "PHOTOINGEST_JOBS": "4"])
        #expect(settings.run.nearEdgeMargin == 30 * 60)
        #expect(self.shown(settings, "near-edge")?.source == "command line")
        #expect(settings.jobs == 4)
        #expect(self.shown(settings, "jobs")?.source == "environment PHOTOINGEST_JOBS")
        #expect(settings.run.thumbnailer.maxPixels == 5_000_000)
        #expect(self.shown(settings, "max-pixels")?.source == "file \(file)")
        #expect(settings.run.includeHidden)
        #expect(settings.connection.retries == 5)
        #expect(self.shown(settings, "retries")?.source == "default")
        // One value where a list may stand is a list of one.
        #expect(settings.event == ["Party"])
        // A switch the file turns on, the environment turns off again.
        let off = try await self.resolve(file: file, environment: ["PHOTOINGEST_INCLUDE_HIDDEN": "false"])
        #expect(!off.run.includeHidden)
    }

    @Test("Each option writes its component's configuration: the run's, the thumbnailer's, the watch's")
    func componentsConfigured() async throws {
        let defaults = try await self.resolve()
        #expect(defaults.run.readsNameDates && defaults.run.exclusions.useDefaults)
        #expect(defaults.run.thumbnailer.jpegShrink == .twiceTheTarget)
        #expect(defaults.run.nearEdgeMargin == 3_600)
        #expect(defaults.watch == WatchFeed.Schedule())
        #expect(self.shown(defaults, "settle")?.value == "2s")
        #expect(self.shown(defaults, "refresh")?.value == "5m")
        let file = try self.file("exclude: ['*.tmp']\nno-default-excludes: true\nrefresh: 1h\n")
        let given = try await self.resolve(
            [
                "no-name-dates": .bool(true), "fast-thumbnails": .bool(true), "near-edge": .int(5),
                "settle": .string("3s"), "no-poll": .bool(true),
            ], file: file, environment: ["PHOTOINGEST_POLL_INTERVAL": "2m", "PHOTOINGEST_UNDATED": "skip"])
        #expect(!given.run.readsNameDates)
        #expect(given.run.thumbnailer.jpegShrink == .toTheTarget)
        #expect(given.run.nearEdgeMargin == 300)
        #expect(given.run.exclusions == ExclusionRules(excludes: ["*.tmp"], useDefaults: false))
        #expect(given.run.undated == .skip)
        #expect(given.watch.settle == .seconds(3) && given.watch.refreshInterval == .seconds(3_600))
        #expect(given.watch.pollInterval == .seconds(120) && given.watch.polling == .never)
        // Two switches of one field, both on: noted, each named where it was given (a run refuses
        // it; config show warns of it and still shows both).
        let both = try await self.resolve(["poll": .bool(true)], environment: ["PHOTOINGEST_NO_POLL": "true"])
        #expect(both.contradictions == ["--poll and PHOTOINGEST_NO_POLL contradict each other: give one."])
        #expect(both.shownText.contains("# warning: --poll and PHOTOINGEST_NO_POLL contradict each other"))
        #expect(defaults.contradictions.isEmpty)
        // A switch turned off below a default leaves the default.
        let off = try await self.resolve(environment: ["PHOTOINGEST_NO_NAME_DATES": "false"])
        #expect(off.run.readsNameDates)
    }

    @Test("Every setting is shown once, in the table's order, with its source")
    func everySettingIsShown() async throws {
        let settings = try await self.resolve()
        #expect(settings.shown.map(\.key) == RunSetting.all.map(\.key))
        #expect(settings.shown.allSatisfy { $0.source == "default" })
        #expect(Set(RunSetting.all.map(\.key)).count == RunSetting.all.count)
    }

    @Test(
        "Each declared check refuses a value from any source, naming it where it was given",
        arguments: [
            ("jobs", "0", "must be at least 1."), ("max-pixels", "0", "must be at least 1."),
            ("near-edge", "-1", "must be 0 to 525600 minutes."),
            ("near-edge", "525601", "must be 0 to 525600 minutes."),
            ("uploads", "0", "must be at least 1."), ("retries", "-1", "cannot be negative."),
            ("stall-timeout", "0", "must be at least 1 second."),
            ("unreachable-timeout", "0", "must be at least 1 second."),
            ("shard", "4/4", "'4/4' is not K/N with 0 ≤ K < N"),
            ("log-format", "xml", "'xml' is not text or json."),
            ("log-level", "loud", "'loud' is not one of trace"),
            ("stats", "often", "'often' is not an interval such as 30s, 5m or 0."),
        ])
    func checksRefuse(key: String, value: String, problem: String) async throws {
        let variable = "PHOTOINGEST_" + key.uppercased().replacingOccurrences(of: "-", with: "_")
        let file = try self.file("\(key): \(value)\n")
        for (origin, given) in [
            ("--\(key)", [key: Int(value).map(ConfigContent.int) ?? .string(value)]), (variable, [:]),
            ("\(key) in \(file)", [:]),
        ] {
            let error = await #expect(throws: UsageError.self) {
                switch origin {
                case variable: try await self.resolve(environment: [variable: value])
                case _ where origin.hasPrefix("--"): try await self.resolve(given)
                default: try await self.resolve(file: file)
                }
            }
            let message = origin + " " + problem
            #expect(error?.message.hasPrefix(message) == true, "\(origin): \(error?.message ?? "no error")")
        }
    }

    @Test("A value of the wrong type names the setting, its source and the type it needs")
    func wrongType() async throws {
        let error = await #expect(throws: UsageError.self) {
            try await self.resolve(environment: ["PHOTOINGEST_JOBS": "many"])
        }
        #expect(error?.message == "The setting jobs from environment PHOTOINGEST_JOBS is not a whole number.")
        let toml = try self.file("jobs = \"three\"\n", ending: "toml")
        let fromFile = await #expect(throws: UsageError.self) { try await self.resolve(file: toml) }
        #expect(fromFile?.message == "The setting jobs from file \(toml) is not a whole number.")
    }

    @Test("A misspelt key in the file is refused with the setting it likely meant")
    func unknownKey() async throws {
        let file = try self.file("jobs: 2\nnear-egde: 30\n")
        let error = await #expect(throws: UsageError.self) { try await self.resolve(file: file) }
        #expect(error?.message.contains("'near-egde', which is no setting (did you mean near-edge?)") == true)
    }

    @Test("Tokens are masked wherever they come from; a token flag outranks the file's token command")
    func tokens() async throws {
        let file = try self.file("upload-token: file-secret-0123456789\ntoken-command: pass show photoshare\n")
        let settings = try await self.resolve(
            ["token": .string("flag-secret-0123456789")], file: file,
            environment: ["PHOTOINGEST_UPLOAD_TOKEN": "env-secret-0123456789"])
        #expect(settings.shown.allSatisfy { !$0.value.contains("secret-0123456789") })
        #expect(self.shown(settings, "token")?.value == "(secret, masked)")
        #expect(settings.connection.uploadToken == "env-secret-0123456789")
        #expect(settings.connection.tokenCommand == nil)
        // The same command given above a token is the one used.
        let command = try await self.resolve(
            ["token-command": .string("pass show photoshare")],
            environment: ["PHOTOINGEST_TOKEN": "env-secret-0123456789"])
        #expect(command.connection.tokenCommand == "pass show photoshare")
    }

    @Test("A URL's credentials are never shown")
    func urlCredentialsMasked() async throws {
        let settings = try await self.resolve(environment: ["PHOTOINGEST_SERVER": "https://ann:hunter2@photos.example"])
        #expect(settings.connection.serverURL == "https://ann:hunter2@photos.example")
        #expect(self.shown(settings, "server")?.value.contains("hunter2") == false)
    }

    @Test("A PHOTOINGEST_ variable no setting reads is warned about, with the one it most likely meant")
    func unknownVariablesAreWarnedAbout() async throws {
        let settings = try await self.resolve(
            environment: [
                "PHOTOINGEST_NEAREDGE": "5", "PHOTOINGEST_JOBS": "2", "PHOTOINGEST_CONFIG": "",
                "PHOTOINGEST_COLOUR": "blue", "PATH": "/usr/bin",
            ])
        #expect(
            settings.warnings == [
                "PHOTOINGEST_COLOUR is no setting's variable; it was ignored",
                "PHOTOINGEST_NEAREDGE is no setting's variable (did you mean PHOTOINGEST_NEAR_EDGE?); it was ignored",
            ])
        #expect(settings.run.nearEdgeMargin != 5 * 60)
        #expect(settings.shownText.contains("# warning: PHOTOINGEST_NEAREDGE"))
    }
}

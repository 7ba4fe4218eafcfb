import Foundation
import IngestTesting
import Testing

@testable import IngestApp

/// What the server settings say of themselves: a watch told its token will run out.
@Suite struct ServerSettingsTests {
    func settings(token: String?, upload: String? = nil, command: String? = nil) -> ServerSettings {
        var settings = ServerSettings()
        settings.serverURL = "http://127.0.0.1:9"
        (settings.token, settings.uploadToken, settings.tokenCommand) = (token, upload, command)
        return settings
    }

    @Test("A fixed token that expires within 12 hours is named with its expiry, never shown; a token command is not")
    func expiringToken() throws {
        let now = Date()
        let hour = UnsignedToken.make("bench", expiresIn: 3_600)
        let warning = try #require(self.settings(token: hour).fixedTokenWarning(now: now))
        #expect(warning.contains("PHOTOINGEST_TOKEN") || warning.contains("--token"), "\(warning)")
        #expect(warning.contains("(in 59 min)") || warning.contains("(in 60 min)"), "\(warning)")
        #expect(warning.contains("--token-command"))
        #expect(!warning.contains(hour) && !warning.contains(hour.split(separator: ".")[1]))
        // The upload token runs out first: it is the one named.
        let week = UnsignedToken.make("bench", expiresIn: 7 * 86_400)
        let upload = try #require(self.settings(token: week, upload: hour).fixedTokenWarning(now: now))
        #expect(upload.contains("upload"), "\(upload)")
        #expect(self.settings(token: week).fixedTokenWarning(now: now) == nil)
        #expect(self.settings(token: "not-a-jwt").fixedTokenWarning(now: now) == nil)
        #expect(self.settings(token: nil, command: "pass show photoshare").fixedTokenWarning(now: now) == nil)
    }
}

import Foundation
import IngestTesting
import Testing

/// What the Debian package installs besides the executables: the systemd units and the example
/// config. (The package itself is built, installed, run and removed by `scripts/package --check`.)
@Suite struct PackagingTests {
    static let packaging = TestEnvironment.repository.appendingPathComponent("packaging")

    func text(_ path: String) throws -> String {
        try String(contentsOf: Self.packaging.appendingPathComponent(path), encoding: .utf8)
    }

    @Test(
        "The nightly units pass systemd-analyze verify, run unprivileged and hardened, and take no token as an argument"
    )
    func unitsVerify() throws {
        let folder = TemporaryFolder("units")
        // Instantiated as photoingest@nightly, with ExecStart pointing at the built binary (verify
        // checks that it exists); man pages are checked once installed, by scripts/package --check.
        let service = try self.text("systemd/photoingest@.service")
            .replacingOccurrences(of: "/usr/bin/photoingest", with: TestEnvironment.photoingest.path)
        try Data(service.utf8).write(to: folder.appending("photoingest@nightly.service"))
        try Data(try self.text("systemd/photoingest@.timer").utf8).write(
            to: folder.appending("photoingest@nightly.timer"))
        let verify = try runProgram(
            "systemd-analyze",
            [
                "verify", "--man=no", folder.appending("photoingest@nightly.service").path,
                folder.appending("photoingest@nightly.timer").path,
            ])
        #expect(verify.status == 0, "\(verify.stderr)")
        // systemd-analyze exits 0 on a value it cannot parse, but says so: nothing may be said.
        #expect(!(verify.stdout + verify.stderr).contains("photoingest@"), "\(verify.stdout)\(verify.stderr)")

        var settings: [String: String] = [:]
        for line in service.split(separator: "\n") where !line.hasPrefix("#") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            settings[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        for (key, value) in [
            ("User", "photoingest"), ("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("PrivateTmp", "yes"),
            ("ProtectHome", "read-only"), ("CapabilityBoundingSet", ""), ("Type", "oneshot"),
        ] {
            #expect(settings[key] == value, "\(key)=\(settings[key] ?? "(unset)")")
        }
        #expect(settings["ExecStart"]?.contains("--config /etc/photoingest/%i.yaml") == true)
        #expect(settings["ExecStart"]?.contains("token") == false)
        #expect(settings["EnvironmentFile"] == "-/etc/photoingest/%i.env")
        let timer = try self.text("systemd/photoingest@.timer")
        for line in ["Persistent=true", "RandomizedDelaySec=", "OnCalendar=", "WantedBy=timers.target"] {
            #expect(timer.contains(line), "timer lacks \(line)")
        }
    }

    @Test("The example config the package installs holds only settings photoingest knows")
    func exampleConfigIsValid() throws {
        let cli = CommandLine("example-config")
        let show = try cli.run([
            "config", "show", "--config", Self.packaging.appendingPathComponent("nightly.yaml").path,
        ])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("log-format: json"))
        #expect(show.stdout.contains("metrics-file: /var/lib/prometheus/node-exporter/photoingest-nightly.prom"))
    }
}

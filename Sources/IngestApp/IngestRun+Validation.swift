import Foundation
import IngestArchive
import IngestCatalog
import IngestCore
import IngestDiscovery
import IngestHashing
import IngestImaging
import IngestPipeline
import IngestReport
import IngestTransport
import IngestZones
import Logging

extension IngestRun {
    func validate() throws {
        if self.settings.paths.isEmpty { throw UsageError("Give at least one file or folder to ingest.") }
        for path in self.settings.paths where !FileManager.default.fileExists(atPath: path) {
            throw UsageError("'\(path)': no such file or folder to ingest.")
        }
        if let html = self.settings.html, let problem = HTMLReportFile.problem(writing: html) {
            throw UsageError("\(self.settings.origins.name("html")) '\(html)': \(problem)")
        }
        _ = try self.window()
        try self.settings.connection.validateServer()
        if self.settings.connection.serverURL == nil && self.settings.event.count > 1 {
            throw UsageError("The archive takes one event name per run (\(self.settings.origins.name("event"))).")
        }
        if let contradiction = self.settings.contradictions.first { throw UsageError(contradiction) }
        let origins = self.settings.origins
        let windowKeys = [("from", self.settings.from), ("until", self.settings.until)].filter { $0.1 != nil }.map(\.0)
        if self.settings.eventsFile != nil && (!self.settings.event.isEmpty || !windowKeys.isEmpty) {
            let given = (self.settings.event.isEmpty ? [] : ["event"]) + windowKeys
            throw UsageError(
                "\(origins.name("events")) names every event with its window: drop \(origins.naming(given)).")
        }
        if self.settings.connection.serverURL != nil && self.settings.eventsFile != nil {
            throw UsageError(
                "With a server, the events come from the server: drop \(origins.name("events")) (--event picks some).")
        }
        if let file = self.settings.eventsFile { _ = try EventsFile.events(at: file, origin: origins.name("events")) }
        if self.settings.connection.serverURL != nil && !windowKeys.isEmpty {
            throw UsageError(
                "With a server, the events' windows come from the server: drop \(origins.naming(windowKeys))"
                    + " (an empty value, --from \"\", clears one).")
        }
        if self.settings.shardPlan != nil && self.settings.run.shard == nil {
            throw UsageError(
                "\(origins.name("shard-plan")) draws the shards of a sharded run: give \(origins.name("shard")) K/N too."
            )
        }
        if self.settings.report == "-" && self.settings.json {
            throw UsageError(
                "\(origins.naming(["report", "json"])) both write to standard output (report -); "
                    + "send the report to a file.")
        }
    }

    func window() throws -> EventWindow {
        let origins = self.settings.origins
        let window = EventWindow(start: self.settings.from?.instant, end: self.settings.until?.instant)
        if let start = window.start, let end = window.end, start > end {
            throw UsageError(
                "\(origins.name("from")) is after \(origins.name("until")): the window would hold no photo.")
        }
        return window
    }

    /// The zone times without one are read in: `--timezone`'s, else this machine's.
    func zone() -> TimeZone {
        self.settings.timezone ?? TimeZone.current
    }

    /// The zone boundaries: the file named by --zone-data (an error when unusable), else the first
    /// standard place that has one (a warning when unusable). Without any, positions date nothing.
    func zoneBoundaries(console: Console) throws -> ZoneBoundaries? {
        if let path = self.settings.zoneData {
            do {
                return try ZoneBoundaries(path: Discovery.absolute(path))
            } catch {
                throw UsageError("\(self.settings.origins.name("zone-data")): \(error.message)")
            }
        }
        for path in ZoneBoundaries.standardPaths() where FileManager.default.fileExists(atPath: path) {
            do {
                return try ZoneBoundaries(path: path)
            } catch {
                console.status("warning: \(error.message); it is passed over", always: true)
            }
        }
        return nil
    }
}

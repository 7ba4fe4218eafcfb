import Foundation
import IngestArchive
import IngestCatalog
import IngestCore
import IngestDestinations
import IngestDiscovery
import IngestHashing
import IngestImaging
import IngestPipeline
import IngestReport
import IngestTransport
import IngestZones
import Logging

extension IngestRun {
    /// The server and its events (every one it lists, or those named), else the archive and the
    /// events of --event/--from/--until or --events.
    func target(context: StageContext, console: Console) async throws -> RunTarget {
        if let client = try self.settings.connection.client() {
            console.status("Asking \(client.address.shown) for its events…")
            let wanted = self.settings.event
            var target = RunTarget(
                destination: ServerDestination(client: client), events: try await Self.serverEvents(client, wanted),
                finishInFlight: { client.finishInFlight() })
            target.listEvents = { try await Self.serverEvents(client, wanted) }
            console.status(
                "Ingesting into \(client.address.shown)"
                    + (self.settings.run.dryRun ? " (dry run: nothing will be uploaded)" : ""))
            return target
        }
        let archivePath = Discovery.absolute(self.settings.archive)
        let name = self.settings.event.first ?? "default"
        let events =
            try self.settings.eventsFile.map {
                try EventsFile.events(at: $0, origin: self.settings.origins.name("events"))
            } ?? [Event(id: name, name: name, window: try self.window())]
        console.status(
            "Ingesting into the archive \(archivePath)"
                + (self.settings.run.dryRun ? " (dry run: nothing will be written)" : ""))
        // A dry run creates nothing: it reads the archive if there is one, else finds it empty.
        guard !self.settings.run.dryRun else {
            let archive = try Archive(existingAt: archivePath)
            if let archive { await Self.sayWindowChanges(of: events, in: archive, dryRun: true, console: console) }
            return RunTarget(
                destination: ArchiveDestination(archive: archive, root: archivePath, io: context.io), events: events,
                excludedPaths: [archivePath])
        }
        try Archive.checkRoot(archivePath)
        do {
            try FileManager.default.createDirectory(atPath: archivePath, withIntermediateDirectories: true)
        } catch {
            throw IngestError(.archiveUnusable, "cannot create the archive \(archivePath)", because: error)
        }
        // Shards share an archive (they write disjoint files); a whole run has it to itself.
        let lock = try await self.lock(
            archivePath + "/" + ArchiveLayout.lock, what: "the archive \(archivePath)",
            shared: self.settings.run.shard != nil,
            console: console)
        let archive = try Archive(root: archivePath)
        // Left by a run killed mid-write; an hour old, so another live run's are left alone.
        archive.removeStaleTemporaryFiles(olderThan: 3_600)
        await Self.sayWindowChanges(of: events, in: archive, dryRun: false, console: console)
        return RunTarget(
            destination: ArchiveDestination(archive: archive, root: archivePath, io: context.io), events: events,
            excludedPaths: [archivePath], lock: lock)
    }

    /// Says which events the archive knows with another window: the run's replaces it in the
    /// archive's index (the latest window is the event's), and the photos placed against the
    /// old one keep their place.
    /// The catalog's own files, which a walk of the folder that holds them passes over: the
    /// folder itself is walked (a config with the catalog under a photo folder is an easy mistake,
    /// and leaving the folder out ingested nothing, every night, without a word).
    static func catalogFiles(_ catalog: String) -> [String] {
        ["", "-wal", "-shm", "-journal"].map { catalog + $0 } + [RunLock.path(guarding: catalog)]
    }

    static func sayWindowChanges(of events: [Event], in archive: Archive, dryRun: Bool, console: Console) async {
        for event in events {
            guard let known = try? await archive.event(id: event.id),
                Self.describe(known.window) != Self.describe(event.window)
            else { continue }
            console.status(
                "The archive's event \"\(event.name)\" was \(Self.describe(known.window)); "
                    + "this run's window, \(Self.describe(event.window)), \(dryRun ? "would replace" : "replaces") it",
                always: true)
        }
    }

    /// The events to ingest into: those named with --event (`wanted`: by id, or by a name only
    /// one event has), else every event the server lists.
    static func serverEvents(_ client: PhotoShareClient, _ wanted: [String]) async throws -> [Event] {
        let listed = try await ServerSettings.events(of: client)
        if wanted.isEmpty {
            guard !listed.isEmpty else {
                throw IngestError(.serverUnusable, "the server lists no events for this user")
            }
            return listed
        }
        return try wanted.map { wanted in
            if let event = listed.first(where: { $0.id == wanted }) { return event }
            let named = listed.filter { $0.name == wanted }
            guard named.count == 1 else {
                throw IngestError(
                    .invalidConfiguration,
                    named.isEmpty
                        ? "the server lists no event with the id or name \(wanted) for this user; `photoingest events` shows the ones it has"
                        : "\(named.count) events are named \(wanted): give one's id (\(named.map(\.id).joined(separator: ", ")))"
                )
            }
            return named[0]
        }
    }

    /// Takes a run lock, telling the user whom it waits for.
    func lock(_ path: String, what: String, shared: Bool = false, console: Console) async throws(IngestError) -> RunLock
    {
        try await RunLock.taken(path, what: what, shared: shared, wait: !self.settings.noWait, console: console)
    }

    /// The paths, each file or folder once: the same one given twice, or through a link, is walked once.
    func distinctPaths(console: Console) -> [String] {
        var seen: [String: String] = [:]
        var distinct: [String] = []
        for path in self.settings.paths {
            var status = stat()
            guard stat(path, &status) == 0 else {
                distinct.append(path)
                continue
            }
            let key = "\(status.st_dev):\(status.st_ino)"
            if let first = seen[key] {
                console.status("'\(path)' is '\(first)' again: walked once.")
                continue
            }
            seen[key] = path
            distinct.append(path)
        }
        return distinct
    }
}

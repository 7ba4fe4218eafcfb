import Foundation
import IngestArchive
import IngestCatalog
import IngestCore
import IngestDestinations
import IngestDiscovery
import IngestOutcome
import IngestPipeline
import IngestTransport

/// `photoingest verify`: proves that the destination still holds every file the catalog says it
/// was given, and marks in the catalog what it does not hold, so that the next run over the same
/// folders sends it again.
///
/// Against a server, one hash-set fetch per event, through the API's own routes. Against the
/// archive, every original read again and hashed on every core, its thumbnails looked for; one
/// whose bytes changed is moved aside and let go of by the index.
public struct VerifyRun {
    let settings: Settings

    public init(settings: Settings) {
        self.settings = settings
    }

    /// Verifies, prints what it found, and returns the exit status `verify --help` promises.
    public func run() async -> Int32 {
        let console = Console(quiet: self.settings.quiet, stdoutTaken: self.settings.json, log: nil)
        do {
            let report = try await self.verify(console: console)
            if self.settings.json {
                console.output(report.jsonText)
            } else {
                for line in report.lines { console.output(line) }
            }
            return report.isWhole ? ExitStatus.success : ExitStatus.notWhole
        } catch let error as IngestError {
            FileHandle.standardError.write(Data("photoingest: error: \(error.message)\n".utf8))
            return ExitStatus.of(error)
        } catch {
            FileHandle.standardError.write(Data("photoingest: error: \(IngestError.describe(error))\n".utf8))
            return ExitStatus.usage
        }
    }

    func verify(console: Console) async throws -> VerifyReport {
        let catalogPath = Discovery.absolute(self.settings.catalog)
        guard FileManager.default.fileExists(atPath: catalogPath) else {
            throw IngestError(
                .invalidConfiguration,
                "there is no catalog at \(catalogPath) (\(self.settings.origins.name("catalog"))): no run has "
                    + "recorded anything there to verify; give --catalog the one `run` uses")
        }
        let catalog = try Catalog(path: catalogPath)
        // Verify writes its marks where a run writes its outcomes: one at a time.
        let lock = try await RunLock.taken(
            RunLock.path(guarding: catalogPath), what: "the catalog \(catalogPath)", wait: !self.settings.noWait,
            console: console)
        defer { withExtendedLifetime(lock) {} }
        let started = ContinuousClock.now
        var report: VerifyReport
        if let client = try self.settings.connection.client() {
            report = try await self.server(client, catalog: catalog, console: console)
        } else {
            report = try await self.archive(catalog: catalog, console: console)
        }
        report.seconds = (ContinuousClock.now - started).seconds
        return report
    }

    /// Each event's hash set fetched once; every file given to it looked up there.
    func server(_ client: PhotoShareClient, catalog: Catalog, console: Console) async throws -> VerifyReport {
        let destination = DestinationKind.server.identity(at: client.address.shown)
        let deliveries = try await catalog.deliveries(destination: destination)
        let events = Set(deliveries.map(\.event)).sorted()
        console.status(
            "Verifying \(deliveries.count) files in \(events.count) events against \(client.address.shown)…")
        var held: [String: KnownHashes] = [:]
        for event in events { held[event] = try await client.uploadedHashes(eventID: event) }
        var report = VerifyReport(destination: destination)
        try await Self.check(
            deliveries, holds: { held[$0]?.contains($1) ?? false }, in: catalog, into: &report,
            missing: "missing from the server")
        return report
    }

    /// Every original the index lists read again and hashed; the damaged let go of; then every
    /// file given to an event looked up among the whole originals the event holds.
    func archive(catalog: Catalog, console: Console) async throws -> VerifyReport {
        let root = Discovery.absolute(self.settings.archive)
        guard FileManager.default.fileExists(atPath: root + "/" + ArchiveLayout.index) else {
            throw IngestError(
                .archiveUnusable,
                "there is no archive at \(root) (\(self.settings.origins.name("archive"))); give --archive the one "
                    + "`run` stores into, or --server")
        }
        let lock = try await RunLock.taken(
            root + "/" + ArchiveLayout.lock, what: "the archive \(root)", wait: !self.settings.noWait, console: console)
        defer { withExtendedLifetime(lock) {} }
        let archive = try Archive(root: root)
        let kept = try await archive.keptOriginals()
        let bytes = kept.reduce(Int64(0)) { $0 + Int64($1.size) }
        console.status(
            String(format: "Verifying %d originals (%.1f MB) in \(root)…", kept.count, Double(bytes) / 1e6))
        let (damage, read) = await self.check(kept, in: archive)
        let destination = DestinationKind.archive.identity(at: root)
        var report = VerifyReport(destination: destination)
        report.originalsChecked = kept.count
        report.bytesRead = read
        var held: [String: Set<ContentHash>] = [:]
        for (index, original) in kept.enumerated() {
            guard let problem = damage[index] else {
                for event in original.events { held[event, default: []].insert(original.hash) }
                continue
            }
            let moved = try await archive.forget(original, problem)
            report.damaged.append(
                VerifyReport.Damaged(
                    sha256: original.hash.hex, original: original.original, problem: problem.description,
                    movedTo: moved))
        }
        try await Self.check(
            catalog.deliveries(destination: destination), holds: { held[$0]?.contains($1) ?? false }, in: catalog,
            into: &report, missing: "missing or damaged in the archive")
        return report
    }

    /// Each delivery looked up where its event's holdings are (``compare(_:holds:names:into:)``),
    /// and the missing ones marked in the catalog, `missing` saying how, with when verify looked.
    static func check(
        _ deliveries: [Delivery], holds: (String, ContentHash) -> Bool, in catalog: Catalog,
        into report: inout VerifyReport, missing how: String
    ) async throws {
        let destination = report.destination
        let missing = Self.compare(
            deliveries, holds: holds, names: try await catalog.eventNames(destination: destination), into: &report)
        try await catalog.markMissing(
            missing, destination: destination, reason: "\(how) when verify looked on \(RFC3339.format(Date()))")
    }

    /// Each original checked on a thread of its own, as many at once as --jobs, with a progress
    /// line; returns what is wrong with each (by position) and the bytes read.
    func check(_ kept: [KeptOriginal], in archive: Archive) async -> (damage: [Int: ArchiveDamage], read: Int64) {
        let pool = WorkerPool(name: "verify", threads: self.settings.jobs)
        defer { pool.shutdown() }
        let progress = ProgressLine(quiet: self.settings.quiet, heading: "verifying")
        // Files checked and bytes read so far, for the progress line.
        let counts = Locked(RunProgress())
        counts.withLock {
            $0.discovered = kept.count
            $0.discoveryDone = true
        }
        var damage: [Int: ArchiveDamage] = [:]
        await withTaskGroup(of: (Int, ArchiveDamage?).self) { group in
            var next = 0
            func start() {
                guard next < kept.count else { return }
                let index = next
                let original = kept[index]
                next += 1
                group.addTask {
                    let found = try? await pool.run { () throws(IngestError) -> ArchiveDamage? in
                        var buffer = [UInt8](repeating: 0, count: 1 << 20)
                        return archive.check(original, buffer: &buffer) { got in
                            counts.withLock { $0.bytesRead += Int64(got) }
                        }
                    }
                    progress.update(
                        counts.withLock {
                            $0.done += 1
                            return $0
                        })
                    return (index, found ?? nil)
                }
            }
            for _ in 0..<self.settings.jobs { start() }
            for await (index, found) in group {
                if let found { damage[index] = found }
                start()
            }
        }
        progress.clear()
        return (damage, counts.withLock { $0.bytesRead })
    }

    /// Each delivery looked up where its event's holdings are; the event's counts and every
    /// missing one into `report`. Returns the missing ones.
    static func compare(
        _ deliveries: [Delivery], holds: (String, ContentHash) -> Bool, names: [String: String],
        into report: inout VerifyReport
    ) -> [Delivery] {
        var missing: [Delivery] = []
        var counts: [String: VerifyReport.EventCount] = [:]
        for delivery in deliveries {
            var count =
                counts[delivery.event] ?? VerifyReport.EventCount(id: delivery.event, name: names[delivery.event])
            count.checked += 1
            if holds(delivery.event, delivery.hash) {
                count.held += 1
            } else {
                count.missing += 1
                missing.append(delivery)
                report.missing.append(
                    VerifyReport.Missing(
                        path: delivery.path, event: delivery.event, eventName: names[delivery.event],
                        sha256: delivery.hash.hex, sourceExists: Self.sourceExists(delivery.path)))
            }
            counts[delivery.event] = count
        }
        report.events = counts.values.sorted { ($0.name ?? $0.id, $0.id) < ($1.name ?? $1.id, $1.id) }
        return missing
    }

    /// Whether the file at `path` is still there to be sent again: the file itself, or the zip
    /// file whose entry it is (a zip's entry is named by the zip's path and the entry's name).
    static func sourceExists(_ path: String) -> Bool {
        var place = Substring(path)
        while !place.isEmpty && place != "/" {
            var status = stat()
            if stat(String(place), &status) == 0 {
                return place.count == path.count || status.st_mode & S_IFMT == S_IFREG
            }
            guard let slash = place.lastIndex(of: "/") else { return false }
            place = place[..<slash]
        }
        return false
    }
}

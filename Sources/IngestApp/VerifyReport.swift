import Foundation
import IngestCore

/// What `verify` found: per event, how many of the files given to it the destination still holds,
/// and each one it does not. Held files are counted, never listed.
public struct VerifyReport: Codable, Sendable, Equatable {
    /// The destination checked, as the catalog names it (`server:URL` or `archive:PATH`).
    public var destination: String
    public var events: [EventCount] = []
    /// Files the catalog holds as given to an event that the event no longer holds.
    public var missing: [Missing] = []
    /// Originals in the archive whose bytes or thumbnails are not as its index says (archive only).
    public var damaged: [Damaged] = []
    /// Archive only: originals read and hashed, and their bytes.
    public var originalsChecked: Int?
    public var bytesRead: Int64?
    public var seconds: Double = 0

    public struct EventCount: Codable, Sendable, Equatable {
        public var id: String
        public var name: String?
        public var checked = 0
        public var held = 0
        public var missing = 0

        public init(id: String, name: String? = nil, checked: Int = 0, held: Int = 0, missing: Int = 0) {
            (self.id, self.name, self.checked, self.held, self.missing) = (id, name, checked, held, missing)
        }
    }

    public struct Missing: Codable, Sendable, Equatable {
        public var path: String
        public var event: String
        public var eventName: String?
        public var sha256: String
        /// Whether the file is still where it was read: the next run can send it again only then.
        public var sourceExists: Bool

        public init(path: String, event: String, eventName: String?, sha256: String, sourceExists: Bool) {
            (self.path, self.event, self.eventName, self.sha256) = (path, event, eventName, sha256)
            self.sourceExists = sourceExists
        }
    }

    public struct Damaged: Codable, Sendable, Equatable {
        public var sha256: String
        /// The original's place in the archive, relative to its root.
        public var original: String
        public var problem: String
        /// Where changed bytes were moved (`damaged/…`), if they were.
        public var movedTo: String?
    }

    public var checked: Int { self.events.reduce(0) { $0 + $1.checked } }
    public var held: Int { self.events.reduce(0) { $0 + $1.held } }
    public var isWhole: Bool { self.missing.isEmpty && self.damaged.isEmpty }

    /// The report as text: a line per event, each missing file and damaged original, and the
    /// verdict last.
    public var lines: [String] {
        var lines: [String] = []
        for event in self.events {
            lines.append(
                "\(event.name ?? event.id): \(event.held) of \(event.checked) held"
                    + (event.missing > 0 ? ", \(event.missing) missing" : ""))
        }
        if !self.damaged.isEmpty {
            lines.append("Damaged in the archive (let go of, so that the next run stores them again):")
            for damage in self.damaged {
                lines.append(
                    "  \(damage.original): \(damage.problem)" + (damage.movedTo.map { "; moved to \($0)" } ?? ""))
            }
        }
        if !self.missing.isEmpty {
            lines.append("Missing (marked in the catalog: the next run over their folders sends them again):")
            for missing in self.missing {
                lines.append(
                    "  \(PathBytes.printable(missing.path))  \(missing.eventName ?? missing.event)  sha256 \(missing.sha256)"
                        + (missing.sourceExists ? "" : "  (the file is gone: it cannot be sent again)"))
            }
        }
        if let originals = self.originalsChecked, let bytes = self.bytesRead {
            lines.append(
                String(
                    format: "Read %d originals, %.1f MB, in %.1f s (%.0f MB/s)", originals, Double(bytes) / 1e6,
                    self.seconds, Double(bytes) / 1e6 / max(self.seconds, 0.001)))
        }
        let files = "\(self.checked) \(self.checked == 1 ? "file" : "files")"
        if self.isWhole {
            lines.append(
                "Verified: all \(files) given to \(self.events.count) \(self.events.count == 1 ? "event" : "events") are held"
            )
        } else {
            let gone = self.missing.filter { !$0.sourceExists }.count
            lines.append(
                "Not whole: \(self.missing.count) of \(files) missing"
                    + (self.damaged.isEmpty ? "" : ", \(self.damaged.count) damaged in the archive")
                    + (gone > 0 ? "; \(gone) of them no longer where they were read" : ""))
        }
        return lines
    }

    /// The report as one JSON object, its totals (`checked`, `held`, `whole`) beside the lists.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    enum CodingKeys: String, CodingKey {
        case destination, events, missing, damaged, originalsChecked, bytesRead, seconds, checked, held, whole
    }

    public init(destination: String) {
        self.destination = destination
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.destination = try container.decode(String.self, forKey: .destination)
        self.events = try container.decode([EventCount].self, forKey: .events)
        self.missing = try container.decode([Missing].self, forKey: .missing)
        self.damaged = try container.decode([Damaged].self, forKey: .damaged)
        self.originalsChecked = try container.decodeIfPresent(Int.self, forKey: .originalsChecked)
        self.bytesRead = try container.decodeIfPresent(Int64.self, forKey: .bytesRead)
        self.seconds = try container.decode(Double.self, forKey: .seconds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.destination, forKey: .destination)
        try container.encode(self.events, forKey: .events)
        try container.encode(self.missing, forKey: .missing)
        try container.encode(self.damaged, forKey: .damaged)
        try container.encodeIfPresent(self.originalsChecked, forKey: .originalsChecked)
        try container.encodeIfPresent(self.bytesRead, forKey: .bytesRead)
        try container.encode(self.seconds, forKey: .seconds)
        try container.encode(self.checked, forKey: .checked)
        try container.encode(self.held, forKey: .held)
        try container.encode(self.isWhole, forKey: .whole)
    }
}

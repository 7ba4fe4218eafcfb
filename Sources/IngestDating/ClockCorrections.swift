import IngestCore

/// The clock corrections of a run: the offsets the user gave (`--clock-offset`), the most
/// specific that applies to a file winning (a serial over a model over a folder, the longest
/// folder among folders), and else the body's reference shots (`--clock-reference`).
public struct ClockCorrections: Sendable, Equatable {
    public var offsets: [ClockOffset]
    /// Each body's reference shots: one gives its offset, two or more its drift as well.
    public var references: [CameraBody: [ClockReference]]

    public init(offsets: [ClockOffset] = [], references: [CameraBody: [ClockReference]] = [:]) {
        self.offsets = offsets
        self.references = references
    }

    public var isEmpty: Bool { self.offsets.isEmpty && self.references.isEmpty }

    /// Seconds to add to the clock of `body` for the file at `path`, whose camera wrote `wall`;
    /// nil when no correction applies. An offset the user gave wins over what references say.
    public func seconds(for body: CameraBody, path: String, wall: LocalDateTime) -> Int? {
        let given = self.offsets.filter { $0.applies(to: body, path: path) }
            .min { ($0.rank, -$0.specificity) < ($1.rank, -$1.specificity) }
        if let given { return given.seconds }
        return self.references[body].flatMap { ClockReference.seconds(at: wall, from: $0) }
    }
}

extension ClockOffset {
    /// Among selectors of one kind, the longer folder is the nearer one.
    var specificity: Int {
        if case .folder(let folder) = self.selector { return folder.count }
        return 0
    }
}

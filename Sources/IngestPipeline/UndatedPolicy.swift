import IngestCore
import IngestOutcome

/// What becomes of a file whose only date is its modification time (`--undated`).
///
/// On a NAS or in an export the modification time is when the file was copied: tried as a new
/// user would, 17 files with no date went into a new event whose window held the day of the run.
public enum UndatedPolicy: String, Sendable, CaseIterable {
    /// Stored in events with no window (the archive's default event), undated in the others:
    /// the default.
    case open
    /// Placed by the modification time, as a capture time (what photoingest did before 0.9).
    case mtime
    /// Left out of every event, skipped with the reason.
    case skip

    /// The verdict of a file dated only by its modification time in an event with `window`;
    /// nil when it is placed by that time.
    func verdict(in window: EventWindow) -> Verdict? {
        switch self {
        case .mtime: return nil
        case .skip:
            return .skipped("no capture time in the file or its name, only its modification time (--undated skip)")
        case .open:
            guard window.start != nil || window.end != nil else { return nil }
            return .undated(
                "no capture time in the file or its name, only its modification time (--undated mtime places it by that)"
            )
        }
    }
}

import Foundation
import IngestCore

/// What became of one file in one event. Every file a run sees ends with one per event.
///
/// ``status`` names it as the report, the catalog and `--json` count it; ``reason`` and
/// ``errorCode`` say why, in the words and the code those write.
public enum Verdict: Sendable, Equatable {
    /// Accepted by the destination, with a note when something about it is worth saying (a
    /// video stored without thumbnails, a thumbnail made from a preview).
    case stored(note: String?)
    /// What a dry run would store: nothing was written.
    case wouldStore
    /// The event holds these bytes already (or the run met them before), and why it is known.
    case duplicate(String)
    /// Taken outside the event's window, by this many seconds.
    case outside(by: TimeInterval)
    /// Its time is too weak to place it against the event's window: why.
    case undated(String)
    /// Not a supported photo, or not a file at all: why.
    case skipped(String)
    /// Finished by an earlier run and unchanged since.
    case unchanged
    /// Found broken by an earlier run, for a reason in its bytes, and unchanged since: not tried
    /// again. That run's reason and code, when it recorded them.
    case knownBroken(reason: String?, code: IngestError.Code?)
    /// Not finished because the run stopped (Ctrl-C, or a server that stopped answering) while
    /// it was in flight: not a failure of the file, and the next run does it.
    case pending(IngestError)
    case failed(IngestError)

    /// The verdict of a file whose work ended with `error`: pending when the run was stopping,
    /// failed otherwise.
    public init(_ error: IngestError) {
        self = error.code == .stopped || error.code == .serverUnreachable ? .pending(error) : .failed(error)
    }

    /// The reason of a file an earlier run finished and that has not changed since.
    public static let unchangedReason = "unchanged since an earlier run"
    /// How a stored file's note begins when `verify` had found it missing at the destination.
    public static let sentAgainNote = "sent again: "
    /// How a stored file's note says that its path was given to the event before, with other bytes.
    public static let sentBeforeNote = "this path was sent before with other bytes"

    public var status: FileStatus {
        switch self {
        case .stored, .wouldStore: .uploaded
        case .duplicate: .duplicate
        case .outside: .outside
        case .undated: .undated
        case .skipped, .unchanged, .knownBroken: .skipped
        case .pending: .pending
        case .failed: .failed
        }
    }

    /// Why it was skipped, failed, counted as a duplicate or stored with a note.
    public var reason: String? {
        switch self {
        case .stored(let note): note
        case .wouldStore, .outside: nil
        case .duplicate(let reason), .skipped(let reason), .undated(let reason): reason
        case .unchanged: Self.unchangedReason
        case .knownBroken(let reason, _): "known broken, unchanged since an earlier run: " + (reason ?? "failed")
        case .pending(let error), .failed(let error): error.message
        }
    }

    /// The failure's code, for failed and pending files, and the earlier failure's for known broken ones.
    public var errorCode: IngestError.Code? {
        if case .knownBroken(_, let code) = self { return code }
        return self.error?.code
    }

    /// What ended the file's work, for failed and pending files.
    public var error: IngestError? {
        switch self {
        case .pending(let error), .failed(let error): error
        default: nil
        }
    }

    /// How far outside the event's window the photo was taken.
    public var outsideBy: TimeInterval? {
        guard case .outside(let distance) = self else { return nil }
        return distance
    }
}

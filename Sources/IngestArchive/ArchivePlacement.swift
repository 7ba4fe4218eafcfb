import GRDB
import IngestCore

/// One store's part of a group commit: its files written under `tmp/`, its index rows, and, once
/// the group is committed, what became of it.
final class ArchivePlacement {
    let staged: [Archive.StagedFile]
    /// The `photo` row's values and the `event_photo` row's, in the order of the index's inserts.
    let photo: StatementArguments
    let eventPhoto: StatementArguments
    /// Set by the commit: stored, a duplicate (the event held the bytes by then), or why not.
    var result: Result<Archive.StoreResult, IngestError>?

    init(staged: [Archive.StagedFile], photo: StatementArguments, eventPhoto: StatementArguments) {
        self.staged = staged
        self.photo = photo
        self.eventPhoto = eventPhoto
    }

    /// Ends it with `error`, unless it ended already.
    func fail(_ error: IngestError) {
        if self.result == nil { self.result = .failure(error) }
    }
}

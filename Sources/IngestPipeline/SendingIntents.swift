import IngestCatalog
import IngestCore

/// What the catalog is told before each store, so that a run killed between the destination
/// taking a photo and the catalog recording it is not misread by the next run: there the photo
/// is found already held, and it was this tool that sent it, not another client.
struct SendingIntents: Sendable {
    let catalog: Catalog
    let destination: String
    let atArchive: Bool

    /// The note of a photo found held that a run which did not finish had begun to send.
    var sentBeforeStop: String {
        self.atArchive
            ? "already in the archive: stored before the last stop" : "already on the server: sent before the last stop"
    }

    /// Notes the send before it begins. A note that cannot be written costs only the words at a
    /// restart, so it never stops the send.
    func willSend(_ hash: ContentHash, of path: String, to event: Event) async {
        try? await self.catalog.noteSending(hash, path: path, event: event.id, destination: self.destination)
    }

    /// Whether a run that did not finish had begun to send `hash`, read from `path`, to `event`.
    func wasSent(_ hash: ContentHash, of path: String, to event: Event) async -> Bool {
        (try? await self.catalog.wasSending(hash, path: path, event: event.id, destination: self.destination))
            ?? false
    }
}

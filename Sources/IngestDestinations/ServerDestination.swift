import Foundation
import IngestCore
import IngestOutcome
import IngestTransport

/// A PhotoShare server as a ``Destination``: the hash set comes from the hash route once per
/// event; each photo is uploaded with its thumbnails, its original streamed from disk.
public struct ServerDestination: Destination {
    public let client: PhotoShareClient

    public init(client: PhotoShareClient) {
        self.client = client
    }

    public var identity: String { self.kind.identity(at: self.client.address.shown) }
    public var kind: DestinationKind { .server }
    /// Phones and other clients upload to the same events while a watch runs.
    public var holdingsChangeMeanwhile: Bool { true }

    public var readsOriginalFromDisk: Bool { true }

    /// The hashes are fetched now: the server's answer is also what says that the token and the
    /// event are good, before any file is read.
    public func prepare(_ event: Event) async throws(IngestError) -> HashSource {
        .fetched(try await self.client.uploadedHashes(eventID: event.id))
    }

    public func store(_ photo: PreparedPhoto, in event: Event) async throws(IngestError) -> StoreResult {
        let upload = PhotoUpload(
            eventID: event.id, path: photo.file.file.path, filename: photo.filename,
            mediaType: photo.file.kind.mediaType,
            hash: photo.file.hash, size: photo.file.file.stamp.size, capturedAt: photo.capture.instant,
            thumbnail500: photo.thumbnails?.large.jpeg ?? [], thumbnail200: photo.thumbnails?.small.jpeg ?? [],
            // A zip file's entry has no file to stream from: a photo's bytes are sent, a video's
            // entry is streamed from the zip file.
            original: photo.file.file.member == nil || photo.file.kind.isVideo ? nil : photo.file.bytes,
            content: photo.file.kind.isVideo ? photo.file.file.member?.content : nil)
        return try await self.client.upload(upload) == .uploaded ? .stored : .duplicate
    }

    public var uploads: UploadCounts? {
        UploadCounts(begun: self.client.transferStatistics.uploadsInFlight, connections: self.client.requestsAtOnce)
    }

    public var statistics: [String: Int] {
        let transfers = self.client.transferStatistics
        return [
            "requests": transfers.requests, "retries": transfers.retries, "bytesUploaded": Int(transfers.bytesUploaded),
        ]
    }
}

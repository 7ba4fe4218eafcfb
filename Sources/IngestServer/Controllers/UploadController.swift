import Foundation
import Hummingbird
import IngestArchive
import IngestContainers
import IngestCore
import IngestImaging

/// `POST /api/mobile-upload`: a photo and its thumbnails, streamed, verified, stored once.
///
/// The upload is either whole and verified or absent: the file streams to a temporary name while
/// it is hashed; only when its SHA-256 equals the form's `photoHash` is it moved into the archive.
struct UploadController {
    let archive: Archive
    let tokens: TokenAuthority
    let maxUploadBytes: Int
    let faults: ServerConfiguration.Faults
    let counters: FaultCounters
    let dice: FaultDice
    let thumbnailer: Thumbnailer

    func add(to router: Router<PhotoShareRequestContext>) {
        router.post("/api/mobile-upload") { request, context in try await self.upload(request, context) }
    }

    func upload(_ request: Request, _ context: PhotoShareRequestContext) async throws -> Response {
        let user = try await self.tokens.user(of: request, needing: .upload)
        guard let contentType = request.headers[.contentType],
            contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundary = ContentDisposition.parameter("boundary", in: contentType)
        else { throw APIError(.badRequest, "the body must be multipart/form-data with a boundary") }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > self.maxUploadBytes {
            throw APIError(.contentTooLarge, "the upload is larger than \(self.maxUploadBytes) bytes")
        }

        if self.dice.roll(self.faults.hangRate) {
            self.counters.add("hung")
            // Never answered; bounded only so that a stopping server is not held up for ever.
            try await Task.sleep(for: .seconds(300))
            throw APIError(.serviceUnavailable, "hung (injected)")
        }
        let form = UploadForm(boundary: boundary, temporaryPath: self.archive.temporaryPath())
        defer { form.discard() }
        // A dropped connection is cut somewhere in the first 64 KiB, mid-body.
        let dropAt = self.dice.roll(self.faults.dropRate) ? self.dice.number(in: 1...(64 << 10)) : nil
        let readRate = self.faults.readBytesPerSecond
        var received = 0
        for try await buffer in request.body {
            received += buffer.readableBytes
            if readRate > 0 {
                try await Task.sleep(for: .seconds(Double(buffer.readableBytes) / Double(readRate)))
            }
            guard received <= self.maxUploadBytes else {
                throw APIError(.contentTooLarge, "the upload is larger than \(self.maxUploadBytes) bytes")
            }
            if let dropAt, received >= dropAt {
                self.counters.add("dropped")
                context.channel.close(promise: nil)
                throw APIError(.internalServerError, "connection dropped (injected)")
            }
            try form.feed(buffer)
        }
        try form.finish()
        return try await self.store(form, user: user)
    }

    /// What the form says it holds: the event, the photo's description and the hash it claims.
    static func described(_ form: UploadForm) throws -> (eventID: String, photo: PhotoDescription, hash: ContentHash) {
        guard let eventID = form.fields["eventId"], !eventID.isEmpty else {
            throw APIError(.badRequest, "eventId is missing")
        }
        guard form.hasFile else { throw APIError(.badRequest, "the file part is missing") }
        guard let photo = form.fields["photos"].flatMap(PhotoDescription.init(photosField:)) else {
            throw APIError(.badRequest, "photos must be a JSON array with one object")
        }
        guard let claimed = photo.photoHash.flatMap(ContentHash.init(parsing:)) else {
            throw APIError(.badRequest, "photoHash is missing or not a SHA-256")
        }
        return (eventID, photo, claimed)
    }

    func store(_ form: UploadForm, user: String) async throws -> Response {
        let (eventID, photo, claimed) = try Self.described(form)
        try await EventAccess.check(user: user, event: eventID, archive: self.archive)

        let received = form.fileHash
        guard received == claimed else {
            throw APIError(
                .badRequest, "the received file does not hash to photoHash", hash: received.prefixed)
        }
        if let size = photo.fileSize, size != form.fileSize {
            throw APIError(.badRequest, "fileSize says \(size) bytes, \(form.fileSize) arrived")
        }
        if try await self.archive.holds(received, inEvent: eventID) {
            throw APIError(
                .conflict, "the event already holds this photo", duplicate: true, hash: received.prefixed)
        }
        guard case .supported(let sniffed) = MediaSniffer.sniff(form.fileHead) else {
            throw APIError(.badRequest, "the file is not a supported photo or video")
        }
        let path = form.temporaryPathForArchive
        let provided = (form.thumbnails["thumbnail_500"] ?? [], form.thumbnails["thumbnail_200"] ?? [])
        let thumbnailer = self.thumbnailer
        let (kind, thumbnails) = try await BlockingWork.run {
            // A TIFF may be a raw format (DNG, NEF, …) that only its directories tell; the bytes
            // read back for that serve the thumbnails too.
            let bytes = sniffed == .tiff ? try Self.readBack(path) : nil
            let kind = bytes.map { bytes in bytes.withUnsafeBytes { MediaSniffer.refine(sniffed, $0) } } ?? sniffed
            return (kind, try Self.thumbnails(provided, path: path, kind: kind, thumbnailer: thumbnailer, bytes: bytes))
        }
        let filename = form.fields["filename"] ?? photo.fileName ?? "photo"
        let item = ArchiveItem(
            hash: received, kind: kind, filename: filename,
            capturedAt: photo.dateTaken.flatMap(RFC3339.parse), captureSource: nil,
            original: .temporaryFile(path: path, size: form.fileSize),
            thumbnail500: thumbnails.large, thumbnail200: thumbnails.small)
        let archive = self.archive
        let stored: Archive.StoreResult
        do {
            stored = try await BlockingWork.run { try archive.store(item, inEvent: eventID) }
        } catch let error as IngestError {
            // The archive's own words (a full disk, a failed sync), for the client to report.
            throw APIError(.internalServerError, error.message)
        }
        guard stored == .stored else {
            throw APIError(
                .conflict, "the event already holds this photo", duplicate: true, hash: received.prefixed)
        }
        return APIResponse.response(
            APIResponse.Uploaded(
                photo: .init(
                    id: "photo_" + received.hex.prefix(12), filename: filename, eventId: eventID,
                    uploadedAt: RFC3339.format(Date()), fileSize: form.fileSize, hash: received.prefixed)))
    }

    /// The client's thumbnails when it sent both, else made here from the stored file (a video's
    /// from a frame; a video with no decodable frame is kept without), or from its `bytes` when
    /// they were read already. Blocking.
    static func thumbnails(
        _ provided: ([UInt8], [UInt8]), path: String, kind: MediaKind, thumbnailer: Thumbnailer, bytes: [UInt8]?
    ) throws -> (large: [UInt8], small: [UInt8]) {
        if !provided.0.isEmpty && !provided.1.isEmpty { return provided }
        if kind.isVideo {
            let made = try? thumbnailer.thumbnails(
                of: try VideoFrameReader.frame(path: path, maxPixels: thumbnailer.maxPixels))
            return (made?.large.jpeg ?? [], made?.small.jpeg ?? [])
        }
        let bytes = try bytes ?? Self.readBack(path)
        do {
            let made = try bytes.withUnsafeBytes { try thumbnailer.thumbnails(of: $0, kind: kind) }
            return (made.large.jpeg, made.small.jpeg)
        } catch {
            throw APIError(.badRequest, "the image could not be decoded: \(error)")
        }
    }

    static func readBack(_ path: String) throws -> [UInt8] {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw APIError(.internalServerError, "the upload could not be read back")
        }
        return [UInt8](bytes)
    }
}

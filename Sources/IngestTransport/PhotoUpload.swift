import Foundation
import IngestCore

/// A photo to upload: its file (streamed from disk), what the form says of it, its thumbnails.
public struct PhotoUpload: Sendable {
    public var eventID: String
    public var path: String
    public var filename: String
    public var mediaType: String
    public var hash: ContentHash
    public var size: Int64
    public var capturedAt: Date
    public var thumbnail500: [UInt8]
    public var thumbnail200: [UInt8]
    /// The original's bytes, when it has no file of its own to stream from (an entry of a zip file).
    public var original: [UInt8]?
    /// The original's content, streamed, when it has no file of its own and is not in memory (a
    /// video inside a zip file).
    public var content: ContentSource?

    public init(
        eventID: String, path: String, filename: String, mediaType: String, hash: ContentHash, size: Int64,
        capturedAt: Date, thumbnail500: [UInt8], thumbnail200: [UInt8], original: [UInt8]? = nil,
        content: ContentSource? = nil
    ) {
        self.original = original
        self.content = content
        self.eventID = eventID
        self.path = path
        self.filename = filename
        self.mediaType = mediaType
        self.hash = hash
        self.size = size
        self.capturedAt = capturedAt
        self.thumbnail500 = thumbnail500
        self.thumbnail200 = thumbnail200
    }
}

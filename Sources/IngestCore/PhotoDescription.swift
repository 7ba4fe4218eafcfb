import Foundation

/// One photo as an upload's `photos` form field describes it (a JSON array of one), in the
/// PhotoShare API's field names: what the client sends and the reference server reads.
public struct PhotoDescription: Codable, Sendable, Equatable {
    public var fileName: String?
    /// `sha256:` and the hex digest of the file's bytes.
    public var photoHash: String?
    public var fileSize: Int?
    /// RFC 3339 UTC, whole seconds.
    public var dateTaken: String?
    public var deviceInfo: DeviceInfo?

    /// Where the upload came from.
    public struct DeviceInfo: Codable, Sendable, Equatable {
        public var platform: String
        public var autoUpload: Bool

        public init(platform: String, autoUpload: Bool) {
            self.platform = platform
            self.autoUpload = autoUpload
        }
    }

    public init(
        fileName: String?, photoHash: String?, fileSize: Int?, dateTaken: String?, deviceInfo: DeviceInfo? = nil
    ) {
        self.fileName = fileName
        self.photoHash = photoHash
        self.fileSize = fileSize
        self.dateTaken = dateTaken
        self.deviceInfo = deviceInfo
    }

    /// The `photos` field of `text`: its one photo, or nil when it is not a JSON array of one object.
    public init?(photosField text: String) {
        guard let photos = try? JSONDecoder().decode([PhotoDescription].self, from: Data(text.utf8)),
            photos.count == 1
        else { return nil }
        self = photos[0]
    }

    /// The `photos` field for this photo: a JSON array of one, keys sorted.
    public var photosField: String { CompactJSON.text([self], fallback: "[]") }
}

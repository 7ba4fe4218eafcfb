import IngestCore
import IngestDating

/// One file's recorded outcome for one event, with what the catalog knows of the file.
public struct OutcomeRecord: Sendable {
    public var path: String
    public var status: FileStatus
    public var reason: String?
    /// The window the file was judged against.
    public var window: EventWindow
    public var sha256: ContentHash?
    public var kind: MediaKind?
    public var capture: CaptureTime?
    /// The run that recorded it.
    public var run: Int64
    /// The body that took it, as the file said.
    public var camera = CameraBody()
}

import Hummingbird
import NIOCore

/// The request context of photoshare-server: Hummingbird's basics plus the connection, so that
/// fault injection can drop it mid-upload.
public struct PhotoShareRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}

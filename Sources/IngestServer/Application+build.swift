import Foundation
import Hummingbird
import IngestArchive
import IngestImaging
import Logging

/// Builds photoshare-server: the PhotoShare API's routes over an archive.
///
/// - Parameters:
///   - configuration: where the data lives, where to listen, the secret, the limits and faults.
///   - onServerRunning: called with the port once the server listens (port 0 picks a free one).
public func buildApplication(
    _ configuration: ServerConfiguration, counters: FaultCounters = FaultCounters(),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let archive = try Archive(root: configuration.dataDirectory)
    // The server owns its data folder: anything in tmp/ is from a server killed mid-upload.
    archive.removeStaleTemporaryFiles(olderThan: 0)
    let tokens = await TokenAuthority(secret: configuration.secret)
    var logger = Logger(label: "photoshare-server")
    logger.logLevel = .warning

    let router = Router(context: PhotoShareRequestContext.self)
    let dice = FaultDice(seed: configuration.faults.seed)
    if !configuration.faults.isNone {
        router.add(middleware: FaultInjectionMiddleware(faults: configuration.faults, counters: counters, dice: dice))
        router.get("/_faults") { _, _ in APIResponse.response(counters.snapshot) }
    }
    EventsController(archive: archive, tokens: tokens).add(to: router)
    HashesController(archive: archive, tokens: tokens).add(to: router)
    ProgressController(archive: archive, tokens: tokens).add(to: router)
    UploadController(
        archive: archive, tokens: tokens, maxUploadBytes: configuration.maxUploadBytes,
        faults: configuration.faults, counters: counters, dice: dice, thumbnailer: Thumbnailer()
    ).add(to: router)

    return Application(
        router: router,
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "photoshare-server"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger)
}

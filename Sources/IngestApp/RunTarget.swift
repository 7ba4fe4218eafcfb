import IngestArchive
import IngestCore
import IngestDestinations
import IngestPipeline

/// Where the photos go and into which events, with what else the run needs to know of it.
struct RunTarget {
    var destination: any Destination
    var events: [Event]
    /// Called on the first Ctrl-C: uploads in flight finish while their bytes move; one that
    /// stalls for --stall-timeout is given up (its file ends pending).
    var finishInFlight: @Sendable () -> Void = {}
    /// Folders the walk must not enter (the archive's own).
    var excludedPaths: [String] = []
    /// The archive's run lock, held to the end of the run.
    var lock: RunLock?
    /// The events as the server lists them now (with --event's choice), for a watch's refresh;
    /// nil for the archive, whose events are the settings'.
    var listEvents: (@Sendable () async throws -> [Event])?
}

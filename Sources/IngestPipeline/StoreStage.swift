import IngestCore
import IngestDestinations

/// Stage 6: hands the photo and its thumbnails to the destination, for one event.
public struct StoreStage: Stage {
    public var destination: any Destination

    public init(destination: any Destination) {
        self.destination = destination
    }

    public struct Input: Sendable {
        public var photo: PreparedPhoto
        public var event: Event
    }

    public func process(_ input: Input, context: StageContext) async throws(IngestError) -> StoreResult {
        try await self.destination.store(input.photo, in: input.event)
    }
}

import IngestCore

/// Stage 6: hands the photo and its thumbnails to the destination.
public struct StoreStage: Stage {
    public var destination: any Destination
    public var event: Event

    public init(destination: any Destination, event: Event) {
        self.destination = destination
        self.event = event
    }

    public func process(_ photo: PreparedPhoto, context: StageContext) async throws(IngestError) -> StoreResult {
        try await self.destination.store(photo, in: self.event)
    }
}

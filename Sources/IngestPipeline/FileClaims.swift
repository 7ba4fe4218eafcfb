import IngestCore

/// The claims one file holds on its bytes, one per event it is new in: each is settled once,
/// stored (whoever waits on the bytes is a duplicate) or released (the next file takes over).
///
/// Every path through stages 4-6 settles here, so that no claim is left held when a file fails
/// half-way, and none is settled twice.
struct FileClaims {
    let hash: ContentHash
    let dedupe: DedupeStage
    /// The outcome indices (positions in the file's events) still holding a claim.
    private(set) var held: [Int] = []
    private let events: [Event]

    init(hash: ContentHash, events: [Event], dedupe: DedupeStage) {
        self.hash = hash
        self.events = events
        self.dedupe = dedupe
    }

    var isEmpty: Bool { self.held.isEmpty }

    /// Claims the bytes in the event at `index`: nil when claimed, else why it is a duplicate there.
    ///
    /// - Throws: ``IngestError`` when the event's hash set could not be read.
    mutating func claim(_ index: Int, context: StageContext) async throws(IngestError) -> String? {
        switch try await self.dedupe.process(.init(hash: self.hash, event: self.events[index]), context: context) {
        case .duplicate(let reason):
            return reason
        case .new:
            self.held.append(index)
            return nil
        }
    }

    /// Settles the claim at `index`, if it is still held.
    mutating func settle(_ index: Int, stored: Bool) {
        guard let position = self.held.firstIndex(of: index) else { return }
        self.held.remove(at: position)
        self.dedupe.settle(self.hash, event: self.events[index], stored: stored)
    }

    /// Settles every claim still held.
    mutating func settleAll(stored: Bool) {
        for index in self.held { self.settle(index, stored: stored) }
    }
}

/// What a destination did with a photo it was given.
public enum StoreResult: Sendable, Equatable {
    case stored
    /// The destination already held these bytes for the event.
    case duplicate
}

/// One decoded video frame as packed 8-bit RGB, and how it must be turned to be seen upright.
public struct VideoFrame: Sendable {
    public var rgb: [UInt8]
    public var width: Int
    public var height: Int
    /// Degrees clockwise to turn the frame for display (the stream's display matrix): 0, 90, 180, 270.
    public var rotation: Int
    /// When the frame is shown, in seconds from the start.
    public var seconds: Double
}

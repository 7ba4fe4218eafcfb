import IngestCore
import IngestDating

/// One camera body of a run: how many of its files the run saw and left outside, the clock
/// offset applied to it, and the one its photos suggest, with what the suggestion rests on.
public struct CameraSummary: Sendable, Equatable {
    public var body: CameraBody
    public var files: Int
    /// Its files outside every event's window.
    public var outside: Int
    /// Seconds added to its clock (`--clock-offset` or references), when one was.
    public var clockOffset: Int?
    /// Seconds its photos suggest adding, when they say so clearly; never applied by itself.
    public var suggestedClockOffset: Int?
    /// What the suggestion rests on, or what is known without one, in words.
    public var basis: String?

    public init(
        body: CameraBody, files: Int, outside: Int, clockOffset: Int? = nil, suggestedClockOffset: Int? = nil,
        basis: String? = nil
    ) {
        self.body = body
        self.files = files
        self.outside = outside
        self.clockOffset = clockOffset
        self.suggestedClockOffset = suggestedClockOffset
        self.basis = basis
    }

    /// The exact option that applies the suggestion: by serial where the body has one, else by
    /// model.
    public var suggestedOption: String? {
        guard let seconds = self.suggestedClockOffset else { return nil }
        let selector = self.body.serial.map { "serial:" + $0 } ?? self.body.model.map { "model:" + $0 }
        return selector.map { "--clock-offset '\($0)=\(ClockOffset.format(seconds))'" }
    }
}

/// The camera body that took a file: its maker, model and serial number, each as the file says
/// it (nil when it says nothing).
///
/// Two bodies of one model are told apart by the serial: a second shooter's camera may keep
/// another time than the first's, and a clock offset is the body's.
public struct CameraBody: Sendable, Hashable, Codable {
    public var make: String?
    public var model: String?
    public var serial: String?

    public init(make: String? = nil, model: String? = nil, serial: String? = nil) {
        self.make = make
        self.model = model
        self.serial = serial
    }

    /// Whether the file named no maker, model or serial.
    public var isEmpty: Bool { self.make == nil && self.model == nil && self.serial == nil }

    /// `Canon EOS R6 #012345`: the model, its maker when the model does not start with it, and
    /// the serial.
    public var description: String {
        var words: [String] = []
        if let make, !(self.model?.lowercased().hasPrefix(make.lowercased().split(separator: " ").first ?? "") ?? false)
        {
            words.append(make)
        }
        if let model { words.append(model) }
        if let serial { words.append("#" + serial) }
        return words.isEmpty ? "an unknown camera" : words.joined(separator: " ")
    }
}

import Foundation
import IngestCore

/// Reads what photoingest needs (``TakeoutFields``) out of a Google Takeout JSON, the file
/// Takeout writes beside each photo (`IMG_1.jpg.json`, `IMG_1.jpg.supplemental-metadata.json`).
///
/// Foundation's JSON decoder reads it (a well-kept parser, with a nesting limit of its own);
/// only the fields below are decoded and anything else is passed over. The bytes are untrusted:
/// more than ``sizeLimit`` is refused before parsing, a value of the wrong type is refused with
/// the name of its field, and a time is taken only as the digits Google writes (`"1588940543"`,
/// or a number), never from the localized `formatted` text beside it.
public enum TakeoutJSON {
    /// A photo's JSON is about a kilobyte; one with a long list of people a few. None is 1 MiB.
    public static let sizeLimit = 1 << 20

    /// Why a JSON gave nothing.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The fields of the JSON `bytes`; a refusal when they are too large, not JSON, or not an
    /// object with fields of the types Takeout writes.
    public static func fields(in bytes: [UInt8]) -> Result<TakeoutFields, Refusal> {
        guard !bytes.isEmpty else { return .failure(Refusal(description: "empty")) }
        guard bytes.count <= Self.sizeLimit else {
            return .failure(Refusal(description: "larger than \(Self.sizeLimit >> 20) MiB"))
        }
        // An object, after white space at most: anything else is refused before the decoder runs.
        guard bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") else {
            return .failure(Refusal(description: "not a JSON object"))
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(bytes))
        } catch let error as DecodingError {
            return .failure(Refusal(description: Self.reason(error)))
        } catch {
            return .failure(Refusal(description: "not JSON"))
        }
        var fields = TakeoutFields(trashed: document.trashed ?? false, title: document.title)
        if let text = document.photoTakenTime?.timestamp?.text {
            guard let seconds = Self.seconds(text) else {
                return .failure(Refusal(description: "photoTakenTime.timestamp \"\(text.prefix(40))\" is not a time"))
            }
            fields.takenSeconds = seconds == 0 ? nil : seconds
        }
        fields.position = [document.geoDataExif, document.geoData].lazy.compactMap { $0?.position }.first
        return .success(fields)
    }

    /// Whole seconds since 1970 written in decimal digits (a sign allowed), within ±10¹² s.
    static func seconds(_ text: String) -> Int64? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard (1...13).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let value = Int64(text), abs(value) < 1_000_000_000_000
        else { return nil }
        return value
    }

    static func reason(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not a JSON object" : "\(path) is not of the type Takeout writes"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "not JSON" : "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not readable"
        @unknown default:
            return "not readable"
        }
    }

    /// The fields decoded; everything else in the file is passed over.
    struct Document: Decodable {
        var title: String?
        var photoTakenTime: Time?
        var geoData: Place?
        var geoDataExif: Place?
        var trashed: Bool?
    }

    struct Time: Decodable {
        var timestamp: Timestamp?
    }

    /// Google writes the seconds as a string; a number is read too.
    struct Timestamp: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self.text = text
            } else {
                let number = try container.decode(Double.self)
                guard number.isFinite, number == number.rounded(), abs(number) < 1e12 else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "not whole seconds")
                }
                self.text = String(Int64(number))
            }
        }
    }

    struct Place: Decodable {
        var latitude: Double?
        var longitude: Double?

        /// The place, when it is one: both coordinates, in range, and not 0°, 0° (no fix).
        var position: GeoPosition? {
            guard let latitude, let longitude, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
            let position = GeoPosition(latitude: latitude, longitude: longitude)
            return position.isNoFix ? nil : position
        }
    }
}

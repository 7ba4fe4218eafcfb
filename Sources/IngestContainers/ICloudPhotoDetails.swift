import Foundation

/// Reads an iCloud Photos export's `Photo Details.csv` (and `Photo Details-1.csv`, … beside it):
/// each photo's name and when it was taken.
///
/// The columns are named in the first row (`imgName`, `fileChecksum`, `favorite`, `hidden`,
/// `deleted`, `originalCreationDate`, `viewCount`, `importDate`); only `imgName` and
/// `originalCreationDate` are read, wherever they stand. The date is UTC to the minute, in
/// English: `Saturday June 4,2022 12:11 PM GMT`. Fields follow RFC 4180 (a name with a comma is
/// quoted); a date written unquoted, its comma splitting it in two, is read too. The bytes are untrusted: more than ``sizeLimit`` is refused, a row whose date does
/// not read is passed over and counted, and a name listed twice with two times dates nothing.
public enum ICloudPhotoDetails {
    /// A CSV lists a few thousand photos at about 120 bytes each; none is 16 MiB.
    public static let sizeLimit = 16 << 20

    /// The header row is about 90 bytes; past this, the file is no such CSV.
    static let headerLimit = 4_096

    /// Why a CSV gave nothing.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// What a CSV says: each name's time, in seconds since 1970 (UTC, whole minutes).
    public struct Table: Sendable, Equatable {
        public var times: [String: Int64] = [:]
        /// Names listed with two different times: dated by neither.
        public var ambiguous: Set<String> = []
        /// Rows whose date could not be read.
        public var unreadRows = 0

        public init() {}

        /// This table and `other`'s, as one folder's (its CSVs together).
        public mutating func merge(_ other: Table) {
            for (name, seconds) in other.times { self.add(name, seconds) }
            self.ambiguous.formUnion(other.ambiguous)
            for name in other.ambiguous { self.times[name] = nil }
            self.unreadRows += other.unreadRows
        }

        mutating func add(_ name: String, _ seconds: Int64) {
            guard !self.ambiguous.contains(name) else { return }
            if let known = self.times[name], known != seconds {
                self.times[name] = nil
                self.ambiguous.insert(name)
            } else {
                self.times[name] = seconds
            }
        }
    }

    /// Whether `name` is such a CSV's: `Photo Details.csv`, `Photo Details-1.csv`, … (any case).
    public static func isDetails(_ name: some StringProtocol) -> Bool {
        // Most names are not: a byte's look before any lower-casing.
        guard let first = name.utf8.first, first | 0x20 == UInt8(ascii: "p") else { return false }
        let lower = name.lowercased()
        guard lower.hasPrefix("photo details"), lower.hasSuffix(".csv") else { return false }
        let middle = lower.dropFirst("photo details".count).dropLast(".csv".count)
        return middle.isEmpty
            || (middle.hasPrefix("-") && middle.count > 1 && middle.dropFirst().allSatisfy(\.isNumber))
    }

    /// The table of the CSV `bytes`; a refusal when they are too large or have no `imgName` and
    /// `originalCreationDate` columns.
    public static func table(in bytes: [UInt8]) -> Result<Table, Refusal> {
        guard bytes.count <= Self.sizeLimit else {
            return .failure(Refusal(description: "larger than \(Self.sizeLimit >> 20) MiB"))
        }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // The header first, on its own: what is not such a CSV is refused before its rows are split.
        let firstLine = bytes[start...].prefix(Self.headerLimit).firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        guard firstLine > start else { return .failure(Refusal(description: "empty")) }
        guard firstLine - start <= Self.headerLimit else {
            return .failure(Refusal(description: "no header row in its first \(Self.headerLimit) bytes"))
        }
        let header = (Self.rows(bytes[start..<firstLine]).first ?? []).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let nameColumn = header.firstIndex(of: "imgName"),
            let dateColumn = header.firstIndex(of: "originalCreationDate")
        else {
            return .failure(Refusal(description: "no imgName and originalCreationDate columns"))
        }
        let rows = Self.rows(bytes[min(firstLine + 1, bytes.endIndex)...])
        var table = Table()
        for row in rows where row.count > max(nameColumn, dateColumn) {
            let name = row[nameColumn]
            guard !name.isEmpty, !name.contains("/") else { continue }
            // The date holds a comma: written unquoted, it spans two fields of a row one field
            // longer than the header.
            let unquoted =
                row.count > header.count && dateColumn + 1 < row.count
                ? Self.seconds(row[dateColumn] + "," + row[dateColumn + 1]) : nil
            guard let seconds = unquoted ?? Self.seconds(row[dateColumn]) else {
                table.unreadRows += 1
                continue
            }
            table.add(name, seconds)
        }
        return .success(table)
    }

    /// The rows of a CSV, each a list of fields: quoted fields may hold commas, doubled quotes and
    /// line breaks; rows end at LF or CRLF; blank rows are dropped.
    static func rows(_ bytes: ArraySlice<UInt8>) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var index = bytes.startIndex
        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRow() {
            endField()
            if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
            row = []
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.endIndex && bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): quoted = true
            case UInt8(ascii: ","): endField()
            case UInt8(ascii: "\n"): endRow()
            case UInt8(ascii: "\r"):
                if index < bytes.endIndex && bytes[index] == UInt8(ascii: "\n") { continue } else { endRow() }
            default: field.append(byte)
            }
        }
        if !field.isEmpty || !row.isEmpty { endRow() }
        return rows
    }

    static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    /// `Saturday June 4,2022 12:11 PM GMT` (the weekday optional, seconds allowed, GMT or UTC) as
    /// seconds since 1970; nil for anything else.
    static func seconds(_ text: String) -> Int64? {
        var words = text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map { $0.lowercased() }
        if let first = words.first, !Self.months.contains(first) { words.removeFirst() }
        guard words.count == 6, let month = Self.months.firstIndex(of: words[0]).map({ $0 + 1 }),
            let day = Int(words[1]), let year = Int(words[2]), (1900...2200).contains(year),
            ["am", "pm"].contains(words[4]), ["gmt", "utc"].contains(words[5])
        else { return nil }
        let clock = words[3].split(separator: ":")
        guard (2...3).contains(clock.count), let hour12 = Int(clock[0]), (1...12).contains(hour12),
            let minute = Int(clock[1]), (0...59).contains(minute)
        else { return nil }
        let second = clock.count == 3 ? Int(clock[2]) : 0
        guard let second, (0...59).contains(second) else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        components.hour = hour12 % 12 + (words[4] == "pm" ? 12 : 0)
        (components.minute, components.second) = (minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return Int64(date.timeIntervalSince1970)
    }
}

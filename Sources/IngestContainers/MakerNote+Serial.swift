import Foundation
import IngestCore

/// The body's serial number in a maker note, as exiftool prints it.
extension MakerNote {
    /// The note's SerialNumber: Canon's 0x000C (a number, zero-padded as exiftool pads it for
    /// `model`), Nikon's 0x001D (or 0x00A0), Olympus's Equipment 0x0101 (or the older notes'
    /// 0x0404 or 0x101A), Pentax's 0x0229, Sony's 0x2031 (the ILCE-9's; later bodies write the
    /// EXIF's). Nil when the note holds none, or a blank one.
    public func serial(model: String?) -> String? {
        let note = self.structure
        let text: String?
        switch self.maker {
        case .canon:
            guard let entry = note.entry(0x000C, in: [.makerNote]), let value = note.unsigned(entry) else { return nil }
            return Self.canonSerial(value, model: model ?? "")
        case .nikon:
            // 0x001D as written; exiftool passes 0x00A0 through Nikon's FormatString.
            text =
                note.entry(0x001D, in: [.makerNote]).flatMap(note.string)
                ?? note.entry(0x00A0, in: [.makerNote]).flatMap(note.string).map(Self.nikonFormatted)
        case .olympus:
            text =
                note.entry(0x0101, in: [.makerNoteSub(0x2010)]).flatMap(note.string)
                ?? (note.entry(0x0404, in: [.makerNote]) ?? note.entry(0x101A, in: [.makerNote])).flatMap(note.string)
        case .pentax: text = note.entry(0x0229, in: [.makerNote]).flatMap(note.string)
        case .sony: return Self.cleaned(note.entry(0x2031, in: [.makerNote]).flatMap(note.string)).map(Self.sonySerial)
        case .apple, .fujifilm, .panasonic: return nil
        }
        return Self.cleaned(text)
    }

    /// The serial a maker keeps for itself where it writes no SerialNumber (exiftool's
    /// InternalSerialNumber): Fujifilm's 0x0010, Panasonic's 0x0025, Canon's 0x0096, decoded as
    /// exiftool decodes them, and Sony's enciphered one (which needs `model`). Not always the
    /// body's printed number, but the body's own.
    public func internalSerial(model: String?) -> String? {
        let note = self.structure
        switch self.maker {
        case .fujifilm:
            return Self.cleaned(note.entry(0x0010, in: [.makerNote]).flatMap(note.string)).map(Self.fujifilmSerial)
        case .panasonic:
            return Self.cleaned(note.entry(0x0025, in: [.makerNote]).flatMap(note.string)).map(Self.panasonicSerial)
        case .canon:
            let text = note.entry(0x0096, in: [.makerNote]).flatMap(note.string)
            return Self.cleaned(text.map { String($0.unicodeScalars.filter { $0 != "\u{FFFD}" }) })
        case .sony:
            return self.sonyInternalSerial(model: model ?? "")
        case .apple, .nikon, .olympus, .pentax:
            return nil
        }
    }

    /// Sony's InternalSerialNumber: bytes of the enciphered 0x9050 block, at an offset and of a
    /// length that depend on the model (exiftool's Tag9050a, b and c), deciphered and printed as
    /// hex. Nil for models whose block holds none.
    func sonyInternalSerial(model: String) -> String? {
        func starts(_ prefixes: [String]) -> Bool { prefixes.contains { model.hasPrefix($0) } }
        let ilce = { (models: [String]) in models.map { "ILCE-" + $0 } }
        // exiftool's conditions, which match the model's start: Tag9050a's bodies, then b's, then c's.
        let laterB = ilce(["6100", "6300", "6400", "6500", "6600", "7C", "7M3", "7RM2", "7RM3", "7RM4", "7SM2", "9"])
        let laterC = ilce(["1", "7M4", "7RM5", "7SM3"]) + ["ILME-FX3"]
        let place: (offset: Int, count: Int)?
        if !starts(["DSC-", "Stellar", "ILCA-99M2", "ZV-"] + laterB + laterC) {
            if starts(["SLT-", "HV", "ILCA-"]) {
                place = (0xF0, 5)
            } else {
                place = starts(["Lunar", "NEX-5N", "NEX-7", "NEX-VG20E"]) ? nil : (0x7C, 4)
            }
        } else if starts(laterB + ["ILCA-99M2", "ZV-E10"]) {
            place = (0x88, 6)
        } else if starts(laterC) {
            place = model.hasPrefix("ILCE-1") ? (0x8A, 6) : (0x88, 6)
        } else {
            place = nil
        }
        let note = self.structure
        guard let place, let entry = note.entry(0x9050, in: [.makerNote]), place.offset + place.count <= entry.count,
            let bytes = note.reader.slice(entry.valueOffset + place.offset, place.count)
        else { return nil }
        return bytes.map { String(format: "%02x", Self.sonyDeciphered[Int($0)]) }.joined()
    }

    /// Sony's substitution cipher undone: a byte b below 249 is written as b³ mod 249.
    static let sonyDeciphered: [UInt8] = {
        var table = (0...255).map { UInt8($0) }
        for byte in 0..<249 { table[byte * byte * byte % 249] = UInt8(byte) }
        return table
    }()

    /// Sony's 0x2031 as exiftool prints it: its first four pairs of digits in reverse order, one
    /// leading zero dropped, then as a number of at least eight digits.
    static func sonySerial(_ text: String) -> String {
        var digits = Array(text.utf8)
        if let first = digits.firstIndex(where: { (0x30...0x39).contains($0) }), first + 8 <= digits.count,
            digits[first..<first + 8].allSatisfy({ (0x30...0x39).contains($0) })
        {
            let pairs = stride(from: first, to: first + 8, by: 2).map { Array(digits[$0..<$0 + 2]) }
            digits.replaceSubrange(first..<first + 8, with: pairs.reversed().joined())
        }
        if digits.first == 0x30 { digits.removeFirst() }
        // Perl's number: the leading digits, zero when there are none.
        let number = String(decoding: digits.prefix { (0x30...0x39).contains($0) }, as: UTF8.self)
        let significant = String(number.drop { $0 == "0" })
        return String(repeating: "0", count: max(0, 8 - significant.count)) + significant
    }

    /// Text with the spaces around it gone; nil when nothing is left.
    static func cleaned(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// Nikon's text as exiftool's FormatString prints it: words that hold a vowel keep only their
    /// first capital (`NO= 1005a431` is `No= 1005a431`), `AF` and `RAW` excepted.
    static func nikonFormatted(_ text: String) -> String {
        var text = String(text.reversed().drop { $0.isWhitespace }.reversed())
        guard text.contains(where: { "AEIOUY".contains($0) }) else { return text }
        /// Lowers all but the first letter of each match; whether there was one.
        func lowerTheRest(_ pattern: String) -> Bool {
            guard let regex = try? Regex(pattern), text.contains(regex) else { return false }
            text.replace(regex) { match in
                let word = String(match.output[0].substring ?? "")
                return String(word.prefix(1)) + word.dropFirst().lowercased()
            }
            return true
        }
        /// Replaces the first match of `pattern` with `replacement`.
        func patch(_ pattern: String, _ replacement: String) {
            guard let regex = try? Regex(pattern), let range = text.firstRange(of: regex) else { return }
            text.replaceSubrange(range, with: replacement)
        }
        if lowerTheRest(#"\b[AEIOUY][A-Z]+"#) {
            patch(#"\bAf\b"#, "AF")
            patch(#"  +.$"#, "")
        }
        if lowerTheRest(#"\b[A-Z][A-Z]*[AEIOUY][A-Z]*"#) { patch(#"\bRaw\b"#, "RAW") }
        return text
    }

    /// Canon's number as exiftool prints it: the EOS D30's as 4 hex and 5 decimal digits, the
    /// EOS-1D family's padded to 6 digits, every other model's to 10.
    static func canonSerial(_ value: UInt32, model: String) -> String {
        if model.contains("EOS D30") { return String(format: "%04x%05d", value >> 16, value & 0xFFFF) }
        return String(format: model.contains("EOS-1D") ? "%06u" : "%010u", value)
    }

    /// Fujifilm's InternalSerialNumber, `FPX20017035 592D3131303406042779…`, as exiftool shows it:
    /// the hex-coded model part decoded and the date written out (`FPX20017035 Y-1104 2006:04:27
    /// 796060110384`); other text as it is.
    static func fujifilmSerial(_ text: String) -> String {
        let pattern = #"^(.*?\s*)([0-9a-fA-F]*)(\d{2})(\d{2})(\d{2})(.{12})$"#
        guard let regex = try? Regex(pattern), let match = text.wholeMatch(of: regex), match.count == 7,
            let month = Int(match[4].substring ?? ""), (1...12).contains(month),
            let day = Int(match[5].substring ?? ""), (1...31).contains(day),
            let year = Int(match[3].substring ?? ""), let hex = match[2].substring, hex.count.isMultiple(of: 2)
        else { return text }
        var decoded = ""
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return text }
            decoded.append(Character(UnicodeScalar(byte)))
            index = next
        }
        let century = year < 70 ? 2000 : 1900
        return String(match[1].substring ?? "") + decoded
            + String(format: " %04d:%02d:%02d ", century + year, month, day) + String(match[6].substring ?? "")
    }

    /// Panasonic's InternalSerialNumber, `F541209120123`, as exiftool shows it: `(F54) 2012:09:12
    /// no. 0123`; other text as it is.
    static func panasonicSerial(_ text: String) -> String {
        let bytes = Array(text.utf8)
        func isDigit(_ index: Int) -> Bool { (0x30...0x39).contains(bytes[index]) }
        func isUpperOrDigit(_ index: Int) -> Bool { isDigit(index) || (0x41...0x5A).contains(bytes[index]) }
        guard bytes.count >= 13, (0x41...0x5A).contains(bytes[0]), isUpperOrDigit(1), isUpperOrDigit(2),
            (3..<13).allSatisfy(isDigit)
        else { return text }
        let part = { (from: Int, to: Int) in String(decoding: bytes[from..<to], as: UTF8.self) }
        return "(\(part(0, 3))) 20\(part(3, 5)):\(part(5, 7)):\(part(7, 9)) no. \(part(9, 13))"
    }
}

import Foundation

/// Which Google Takeout JSON of a folder belongs to each of its photos and videos.
///
/// Takeout names a photo's JSON after the photo, but not always as written: the name is cut so
/// that it fits 51 characters with `.json` (so `.supplemental-metadata` is cut to any prefix of
/// itself, and a long name to its first 46 characters), a copy's `(1)` moves to the end
/// (`IMG(1).jpg` has `IMG.jpg(1).json`), and an edited copy (`IMG-edited.jpg`, `-bearbeitet`,
/// `-modifié`, …) or a Live Photo's clip (`IMG.MP4` beside `IMG.HEIC`) has no JSON of its own.
/// The rules, tried in this order, say which. Names compare as Takeout writes them (case and
/// all); lengths count UTF-16 code units, as Takeout's cut does.
public enum TakeoutPairing {
    /// How a file was paired with its JSON.
    public enum Rule: String, Sendable, CaseIterable, Codable {
        /// `NAME.EXT.json`, or `NAME.EXT.supplemental-metadata.json` whole.
        case name
        /// A name Takeout shortened: the supplemental suffix cut, the name cut at 46
        /// characters, a copy's `(n)` moved behind the extension.
        case shortened
        /// A numbered copy (`NAME(1).EXT`) that Takeout wrote without a JSON of its own, whose
        /// cut name is the start of the copy's.
        case duplicate
        /// An edited copy (`NAME-edited.EXT`, in any language) or a Live Photo's clip, with the
        /// JSON of its original.
        case edited
    }

    static let jsonSuffix = ".json"
    static let supplemental = ".supplemental-metadata"
    /// Takeout cuts a JSON's name, less `.json`, to this many UTF-16 code units.
    static let cutLength = 46
    /// A forgotten duplicate's name is longer than its JSON's by less than this.
    static let duplicateSlack = 10

    /// The names of Google Photos' folder in a Takeout, in the languages seen, and Takeout's own.
    static let folderNames: Set<String> = [
        "Takeout", "Google Photos", "Google Foto", "Google Fotos", "Fotky Google", "Google Фото", "Google Снимки",
    ]

    /// Whether the folder `path` (a file system's, or a zip entry's) lies in a Takeout.
    public static func isTakeout(folder path: some StringProtocol) -> Bool {
        path.split(separator: "/").contains { Self.folderNames.contains(String($0)) }
    }

    /// Whether `name` is a JSON's.
    public static func isJSON(_ name: String) -> Bool {
        let suffix = Self.jsonSuffix.utf8
        return name.utf8.count > suffix.count && name.utf8.suffix(suffix.count).elementsEqual(suffix)
    }

    /// For each photo or video in `names` (one folder's entries), by position, its JSON's
    /// position and the rule that paired them; a file with no JSON is not in the result.
    public static func pairs(in names: [String]) -> [Int: (json: Int, rule: Rule)] {
        let index = JSONIndex(names)
        guard !index.isEmpty else { return [:] }
        var pairs: [Int: (json: Int, rule: Rule)] = [:]
        for (position, name) in names.enumerated() where !Self.isJSON(name) {
            if let found = index.match(name) { pairs[position] = found }
        }
        return pairs
    }

    /// A name split into what precedes a trailing `(n)` and `n`: `IMG(1)` is `IMG`, 1.
    static func numbered(_ text: Substring) -> (text: Substring, number: Int?) {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return (text, nil) }
        let digits = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard (1...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = Int(digits), open > text.startIndex
        else { return (text, nil) }
        return (text[..<open], number)
    }

    /// A media name split: its name without a `(n)` before the extension, that `n`, and its stem
    /// (that name less its extension).
    static func media(_ name: String) -> (plain: String, number: Int?, stem: Substring) {
        let dot = name.lastIndex(of: ".").flatMap { $0 > name.startIndex ? $0 : nil }
        let stem = dot.map { name[..<$0] } ?? Substring(name)
        let (bare, number) = Self.numbered(stem)
        let plain = String(bare) + (dot.map { String(name[$0...]) } ?? "")
        return (plain, number, bare)
    }

    /// The first `count` UTF-16 code units of `text`.
    static func cut(_ text: String, to count: Int) -> String {
        String(decoding: Array(text.utf16.prefix(count)), as: UTF16.self)
    }

    /// One folder's JSONs, by the keys each rule looks them up by.
    struct JSONIndex {
        struct Key: Hashable {
            var text: String
            var number: Int?
        }

        /// By the name it stands for (``bases(_:)``) and its number.
        var byBase: [Key: Int] = [:]
        /// By the name less `.json`, as written.
        var byRaw: [String: Int] = [:]
        /// By that name less its extension, and its number.
        var byStem: [Key: Int] = [:]

        var isEmpty: Bool { self.byRaw.isEmpty }

        init(_ names: [String]) {
            for (position, name) in names.enumerated() where TakeoutPairing.isJSON(name) {
                let raw = name.dropLast(TakeoutPairing.jsonSuffix.count)
                self.byRaw[String(raw), default: position] = position
                let (text, number) = TakeoutPairing.numbered(raw)
                for base in Self.bases(text) {
                    self.byBase[Key(text: String(base), number: number), default: position] = position
                    if let dot = base.lastIndex(of: "."), dot > base.startIndex {
                        self.byStem[Key(text: String(base[..<dot]), number: number), default: position] = position
                    }
                }
            }
        }

        /// The name a JSON's text stands for: as written, and without a last segment that is a
        /// cut `.supplemental-metadata` (`.supplemental-me`, `.s`, `.`).
        static func bases(_ text: Substring) -> [Substring] {
            guard let dot = text.lastIndex(of: "."), dot > text.startIndex,
                TakeoutPairing.supplemental.hasPrefix(text[dot...])
            else { return [text] }
            return [text, text[..<dot]]
        }

        /// The JSON of the media file `name`, by the first rule that pairs them.
        func match(_ name: String) -> (json: Int, rule: Rule)? {
            if let json = self.byRaw[name] ?? self.byRaw[name + TakeoutPairing.supplemental] {
                return (json, .name)
            }
            let (plain, number, stem) = TakeoutPairing.media(name)
            if let json = self.byBase[Key(text: plain, number: number)] { return (json, .shortened) }
            if plain.utf16.count > TakeoutPairing.cutLength,
                let json = self.byBase[
                    Key(text: TakeoutPairing.cut(plain, to: TakeoutPairing.cutLength), number: number)]
            {
                return (json, .shortened)
            }
            // A copy whose JSON was written for another name: the copy's stem, `(n)` and all,
            // begins with the JSON's name, a few characters short of it.
            let written = name.lastIndex(of: ".").flatMap { $0 > name.startIndex ? String(name[..<$0]) : nil } ?? name
            let length = written.utf16.count
            for shorter in 1..<TakeoutPairing.duplicateSlack where length - shorter > 0 {
                if let json = self.byRaw[TakeoutPairing.cut(written, to: length - shorter)] {
                    return (json, .duplicate)
                }
            }
            // An edited copy or a Live Photo's clip: its stem is the original's, or the original's
            // and a `-suffix`; the longest original wins (`IMG_12-edited` is not `IMG_1`'s).
            var ends = [stem.endIndex]
            ends += stem.indices.filter { stem[$0] == "-" && $0 > stem.startIndex }.reversed()
            for end in ends {
                if let json = self.byStem[Key(text: String(stem[..<end]), number: number)] { return (json, .edited) }
            }
            return nil
        }
    }
}

import Foundation

/// JSON as photoingest writes it everywhere (the `--json` summary, the per-file report, the
/// catalog's summaries, the reference server's answers): one line, keys sorted so that the same
/// value is always the same text, slashes left as they are.
public enum CompactJSON {
    public static func data(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// The text of `value`, or `fallback` should it not encode (a value of ours always does).
    public static func text(_ value: some Encodable, fallback: String = "{}") -> String {
        (try? self.data(value)).map { String(decoding: $0, as: UTF8.self) } ?? fallback
    }
}

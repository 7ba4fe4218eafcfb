/// How far apart two words are as typos go: the Levenshtein distance, for "did you mean" hints.
public enum EditDistance {
    /// The fewest insertions, deletions and substitutions of characters that turn `a` into `b`.
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The word of `words` nearest to `word`, when it is at most `limit` edits away.
    public static func nearest(to word: String, among words: some Collection<String>, limit: Int) -> String? {
        let distances = words.map { ($0, Self.between(word, $0)) }
        guard let (closest, distance) = distances.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }), distance <= limit else {
            return nil
        }
        return closest
    }
}

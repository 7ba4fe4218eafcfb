/// Paths named by a shard's index, as the README's job array names each shard's catalog
/// (`catalog-$SLURM_ARRAY_TASK_ID.sqlite`): from one shard's, every shard's.
public enum ShardPaths {
    /// `path` with the last number of its file name that equals `index` replaced by each index
    /// of `count` (zero padding kept); nil when the file name holds no such number.
    public static func siblings(of path: String, index: Int, count: Int) -> [String]? {
        guard let run = Self.index(index, in: path) else { return nil }
        let width = path[run].count
        return (0..<count).map { other in
            let digits = String(other)
            let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
            return String(path[..<run.lowerBound]) + padded + String(path[run.upperBound...])
        }
    }

    /// `path` with that number replaced by `*`: a pattern every shard's path matches
    /// (`state/catalog-*.sqlite`); nil when the file name holds no such number.
    public static func pattern(of path: String, index: Int) -> String? {
        guard let run = Self.index(index, in: path) else { return nil }
        return String(path[..<run.lowerBound]) + "*" + String(path[run.upperBound...])
    }

    /// Where the last number of `path`'s file name that equals `index` is.
    static func index(_ index: Int, in path: String) -> Range<String.Index>? {
        var position = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        var found: Range<String.Index>?
        while position < path.endIndex {
            guard path[position].isASCII, path[position].isNumber else {
                position = path.index(after: position)
                continue
            }
            let start = position
            while position < path.endIndex, path[position].isASCII, path[position].isNumber {
                position = path.index(after: position)
            }
            if Int(path[start..<position]) == index { found = start..<position }
        }
        return found
    }
}

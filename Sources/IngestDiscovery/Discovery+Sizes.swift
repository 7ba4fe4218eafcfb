import Foundation

extension Discovery {
    /// The bytes of every unit of the whole import, whichever shard it falls in: a file, or the
    /// files of one name (a pair), keyed as the shard rule takes them (the path relative to its
    /// root, without extension). What a ``ShardPlan`` is drawn from.
    ///
    /// The same walk as ``walk(into:shouldStop:finishing:)`` (its rules, links and zip entries),
    /// without sending anything: one `stat` per file, no file opened.
    public func unitSizes(shouldStop: () -> Bool = { false }) -> [String: Int64] {
        var whole = self
        whole.shard = nil
        var sizes: [String: Int64] = [:]
        var state = WalkState()
        for root in self.roots where ZipMember.isZip(root) {
            let path = Self.absolute(root)
            state.takeout.add(path, status: Self.status(path))
        }
        for root in self.roots {
            let base = Self.absolute(root)
            var pending: [Entry] = [Entry(path: base, status: nil, scopes: [], sidecar: nil)]
            while let entry = pending.popLast() {
                if shouldStop() { return sizes }
                let visit = whole.visit(entry, base: base, state: &state)
                if case .file(let file) = visit.item {
                    let relative = Self.relative(file.path, to: base)
                    sizes[Self.stem(of: relative) ?? relative, default: 0] += file.stamp.size
                }
                pending += visit.children
            }
        }
        return sizes
    }
}

import IngestTesting

extension ReferenceServer {
    /// The photos the server holds in `event`, read from its index: hash to the file name it was
    /// uploaded under.
    func held(inEvent event: String) throws -> [String: String] {
        let rows = try self.sql("SELECT sha256 || char(9) || filename FROM event_photo WHERE event_id = '\(event)'")
        var held: [String: String] = [:]
        for row in rows.split(separator: "\n") {
            let fields = row.split(separator: "\t", maxSplits: 1).map(String.init)
            if fields.count == 2 { held[fields[0]] = fields[1] }
        }
        return held
    }
}

import Foundation
import IngestCore
import IngestDestinations
import IngestDiscovery

@testable import IngestPipeline

/// What a stage's test starts from: a real file read by the real stage 1.
enum StageFixtures {
    /// `url` as the walk finds it (its size and modification time) and as stage 1 reads it.
    static func read(_ url: URL, context: StageContext) async throws -> LoadedFile {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let modified = (attributes[.modificationDate] as? Date) ?? Date()
        let stamp = FileStamp(size: size, modifiedNanoseconds: Int64(modified.timeIntervalSince1970 * 1e9), inode: 0)
        guard
            case .photo(let loaded) = try await ReadStage().process(
                DiscoveredFile(path: url.path, stamp: stamp), context: context)
        else { throw FixtureFailure("\(url.lastPathComponent) was not read as a photo or video") }
        return loaded
    }

    struct FixtureFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

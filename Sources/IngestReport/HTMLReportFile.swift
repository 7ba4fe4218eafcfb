import Foundation
import IngestCore

extension IngestError.Code {
    /// The HTML report could not be written: the run's outcomes are in the catalog all the same.
    public static let reportUnwritable = Self("reportUnwritable")
}

/// The report page as a file: written whole or not at all.
public enum HTMLReportFile {
    /// Why `path` cannot take the report, checked before a long run rather than after it; nil
    /// when it can.
    public static func problem(writing path: String) -> String? {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return "is a folder; name the report's file"
        }
        let parent = FileSystem.folder(of: path)
        guard FileManager.default.fileExists(atPath: parent) else { return "the folder \(parent) does not exist" }
        guard FileManager.default.isWritableFile(atPath: parent) else { return "the folder \(parent) is not writable" }
        return nil
    }

    /// Renders `page` and replaces `path` with it in one rename, so that a reader never sees half
    /// a page. Thumbnails not in an archive are made `jobs` at a time, at most `embedLimit`.
    public static func write(
        _ page: ReportPage, to path: String, jobs: Int, embedLimit: Int = ReportThumbnails.defaultEmbedLimit
    ) async throws {
        let html = await HTMLReport.render(
            page, thumbnails: ReportThumbnails(archiveRoot: page.archiveRoot, embedLimit: embedLimit, jobs: jobs))
        do {
            try Data(html.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw IngestError(.reportUnwritable, "cannot write the HTML report \(path)", because: error)
        }
    }
}

import Mustache

/// The report's swift-mustache templates. `{{value}}` escapes `& < > " '`, so a file name is text
/// wherever it lands, attributes included (every attribute is quoted). Details show on hover or
/// keyboard focus through CSS alone; the one script makes pictures as their tiles come near the
/// screen (without it, tiles show their outcome's shape).
enum ReportTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        do {
            try library.register(Self.page, named: "page")
            try library.register(Self.style, named: "style")
            try library.register(Self.script, named: "script")
            try library.register(Self.timeline, named: "timeline")
            try library.register(Self.tile, named: "tile")
        } catch {
            preconditionFailure("a report template does not parse: \(error)")
        }
        return library
    }()

    /// The templates, from the files in Templates/ that SwiftPM embeds in the code (so that an
    /// installed executable needs no resource bundle beside it). A file's last newline is the
    /// file's, not the template's.
    static let page = Self.text(PackageResources.page_mustache)
    static let style = Self.text(PackageResources.report_css)
    static let script = Self.text(PackageResources.report_js)
    static let timeline = Self.text(PackageResources.timeline_mustache)
    static let tile = Self.text(PackageResources.tile_mustache)

    static func text(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}

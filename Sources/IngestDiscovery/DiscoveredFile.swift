import Foundation
import IngestCore

/// A file found under the paths a run was given, with the stat results that identify it.
public struct DiscoveredFile: Sendable, Equatable {
    /// Absolute path, for the catalog, the report and opening the file.
    public var path: String
    public var stamp: FileStamp
    /// The sidecar that describes it, if any.
    public var sidecar: Sidecar? {
        get { self.attachments?.sidecar }
        set { self.attachments = Attachments.of(sidecar: newValue, member: self.member) }
    }
    /// The zip file's entry it is, when it is one (its path then names no file of its own).
    public var member: ZipMember? {
        get { self.attachments?.member }
        set { self.attachments = Attachments.of(sidecar: self.sidecar, member: newValue) }
    }
    /// What few files have, boxed: a file's item is copied through the walk, its channel and the
    /// stages, and with both inline each copy of a plain file's item took three times as long.
    private var attachments: Attachments?

    public init(path: String, stamp: FileStamp, sidecar: Sidecar? = nil, member: ZipMember? = nil) {
        self.path = path
        self.stamp = stamp
        self.attachments = Attachments.of(sidecar: sidecar, member: member)
    }
}

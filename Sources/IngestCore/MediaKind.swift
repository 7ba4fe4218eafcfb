/// What a file is, decided from its first bytes, never from its name.
public enum MediaKind: String, Sendable, CaseIterable, Codable {
    case jpeg, png, tiff, webp, heic, avif, jxl
    /// Camera raw photos: shown through the largest JPEG preview they embed.
    case dng, cr2, cr3, nef, arw, raf, rw2, orf, pef
    /// Videos in ISO base media files: MP4 (and M4V), QuickTime, 3GPP.
    case mp4
    case quickTime = "quicktime"
    case threeGPP = "3gpp"

    public var isVideo: Bool {
        switch self {
        case .mp4, .quickTime, .threeGPP: true
        default: false
        }
    }

    public var isRaw: Bool {
        switch self {
        case .dng, .cr2, .cr3, .nef, .arw, .raf, .rw2, .orf, .pef: true
        default: false
        }
    }

    /// The MIME type sent with an upload and stored in the archive index.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .tiff: "image/tiff"
        case .webp: "image/webp"
        case .heic: "image/heic"
        case .avif: "image/avif"
        case .jxl: "image/jxl"
        case .dng: "image/x-adobe-dng"
        case .cr2: "image/x-canon-cr2"
        case .cr3: "image/x-canon-cr3"
        case .nef: "image/x-nikon-nef"
        case .arw: "image/x-sony-arw"
        case .raf: "image/x-fuji-raf"
        case .rw2: "image/x-panasonic-rw2"
        case .orf: "image/x-olympus-orf"
        case .pef: "image/x-pentax-pef"
        case .mp4: "video/mp4"
        case .quickTime: "video/quicktime"
        case .threeGPP: "video/3gpp"
        }
    }

    /// The extension an archived original gets.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .tiff: "tif"
        case .webp: "webp"
        case .heic: "heic"
        case .avif: "avif"
        case .jxl: "jxl"
        case .dng: "dng"
        case .cr2: "cr2"
        case .cr3: "cr3"
        case .nef: "nef"
        case .arw: "arw"
        case .raf: "raf"
        case .rw2: "rw2"
        case .orf: "orf"
        case .pef: "pef"
        case .mp4: "mp4"
        case .quickTime: "mov"
        case .threeGPP: "3gp"
        }
    }
}

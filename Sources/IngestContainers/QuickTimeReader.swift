import Foundation
import IngestCore

/// Reads a video's `moov` box (ISO base media / QuickTime) for the fields of ``QuickTimeFields``.
///
/// A parser of untrusted bytes: every read goes through ``ByteReader`` and ``ISOBox``, which
/// refuse what does not fit; what it finds is handed on as text and numbers, interpreted by
/// ``CaptureTimeResolver``.
public enum QuickTimeReader {
    /// `moov` holds the payload of the `moov` box (its contents, without its header); `meta`,
    /// when the file has one beside `moov`, the payload of that `meta` box (a Sony camera's
    /// NonRealTimeMeta).
    public static func fields(
        moov: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    ) -> QuickTimeFields {
        let reader = ByteReader(moov)
        let all = 0..<reader.count
        var fields = QuickTimeFields()
        if let mvhd = ISOBox.find("mvhd", in: reader, range: all), mvhd.payload.count >= 8 {
            // Full box: version 1 has 64-bit times.
            let version = reader.u8(mvhd.payload.lowerBound)
            fields.movieCreated = reader.uint(
                mvhd.payload.lowerBound + 4, size: version == 1 ? 8 : 4, limit: mvhd.payload.upperBound)
        }
        for box in ISOBox.children(in: reader, range: all) {
            switch box.type {
            case "trak" where fields.rotation == 0:
                if let rotation = self.videoRotation(reader, trak: box) { fields.rotation = rotation }
            case "meta":
                let items = self.metadataItems(reader, meta: box)
                self.take(items, into: &fields)
            case "udta":
                self.readUserData(reader, udta: box, into: &fields)
            default:
                break
            }
        }
        // A Canon camera's video carries its EXIF as a CR3 does: the body and its serial number.
        let canon = CanonCR3.metadata(reader, moov: all).compactMap { TIFFStructure($0.bytes, root: $0.root) }
        if !canon.isEmpty {
            let body = MediaIdentity(canon).body
            fields.make = fields.make ?? body.make
            fields.model = fields.model ?? body.model
            fields.serial = body.serial
        }
        if meta.count > 0, let body = SonyNonRealTimeMeta.body(ByteReader(meta), meta: 0..<meta.count) {
            self.take(body, into: &fields)
        }
        return fields
    }

    /// A maker's own box's body: its serial, and its maker and model where nothing named them.
    static func take(_ body: CameraBody, into fields: inout QuickTimeFields) {
        fields.make = fields.make ?? body.make
        fields.model = fields.model ?? body.model
        fields.serial = fields.serial ?? body.serial
    }

    /// The rotation of a video track's display matrix (`tkhd`), or nil when the track is not video.
    static func videoRotation(_ reader: ByteReader, trak: ISOBox) -> Int? {
        guard let hdlr = ISOBox.find(path: ["mdia", "hdlr"], in: reader, range: trak.payload), hdlr.payload.count >= 12,
            reader.fourCC(hdlr.payload.lowerBound + 8) == "vide",
            let tkhd = ISOBox.find("tkhd", in: reader, range: trak.payload)
        else { return nil }
        let version = reader.u8(tkhd.payload.lowerBound)
        // After version/flags: times, track id, reserved, duration (wider in version 1); then
        // 8 reserved bytes, layer, group, volume, reserved; then the 3x3 matrix.
        let matrix = tkhd.payload.lowerBound + (version == 1 ? 52 : 40)
        guard matrix + 36 <= tkhd.payload.upperBound else { return nil }
        let a = Int32(bitPattern: reader.u32be(matrix))
        let b = Int32(bitPattern: reader.u32be(matrix + 4))
        let degrees = atan2(Double(b), Double(a)) * 180 / .pi
        return (Int((degrees / 90).rounded()) * 90 + 360) % 360
    }

    /// The `mdta` items of a QuickTime `meta` box (`keys` names them, `ilst` holds them by
    /// index), and any iTunes-style items (`©day`) by their four-letter type; text values only.
    static func metadataItems(_ reader: ByteReader, meta: ISOBox) -> [String: String] {
        // QuickTime's meta has no version and flags; the ISO one does.
        var children = meta.payload
        if ISOBox.at(children.lowerBound, in: reader, limit: children.upperBound)?.type != "hdlr" {
            guard children.count >= 4 else { return [:] }
            children = (children.lowerBound + 4)..<children.upperBound
        }
        var names: [String] = []
        if let keys = ISOBox.find("keys", in: reader, range: children), keys.payload.count >= 8 {
            let count = Int(reader.u32be(keys.payload.lowerBound + 4))
            var offset = keys.payload.lowerBound + 8
            for _ in 0..<min(count, keys.payload.count / 8) {
                let size = Int(reader.u32be(offset))
                guard size >= 8, size <= keys.payload.upperBound - offset else { break }
                let name = reader.slice(offset + 8, size - 8).map { String(decoding: $0, as: UTF8.self) } ?? ""
                names.append(name)
                offset += size
            }
        }
        var items: [String: String] = [:]
        guard let ilst = ISOBox.find("ilst", in: reader, range: children) else { return items }
        for item in ISOBox.children(in: reader, range: ilst.payload) {
            guard let value = self.dataText(reader, item: item) else { continue }
            // An mdta item's type is the 1-based index of its key.
            let index = Int(reader.u32be(item.offset + 4))
            if index >= 1, index <= names.count {
                items[names[index - 1]] = value
            } else {
                items[item.type] = value
            }
        }
        return items
    }

    /// The text of an item's `data` box (type indicator 1: UTF-8).
    static func dataText(_ reader: ByteReader, item: ISOBox) -> String? {
        guard let data = ISOBox.find("data", in: reader, range: item.payload), data.payload.count >= 8,
            reader.u32be(data.payload.lowerBound) & 0x00FF_FFFF == 1,
            let text = reader.slice(data.payload.lowerBound + 8, data.payload.count - 8)
        else { return nil }
        return self.text(text)
    }

    /// Apple's keys, where a `meta` box holds them: the creation date, the position, a Live
    /// Photo's identifier, the camera's make and model.
    static func take(_ items: [String: String], into fields: inout QuickTimeFields) {
        fields.appleCreationDate = fields.appleCreationDate ?? items["com.apple.quicktime.creationdate"]
        fields.location = fields.location ?? items["com.apple.quicktime.location.ISO6709"]
        fields.contentIdentifier = fields.contentIdentifier ?? items["com.apple.quicktime.content.identifier"]
        fields.make = fields.make ?? items["com.apple.quicktime.make"]
        fields.model = fields.model ?? items["com.apple.quicktime.model"]
    }

    /// `©day`, `©xyz`, `©mak`, `©mod` and `date` in `udta`, an iTunes `meta` inside it, and the
    /// boxes in which Nikon (`NCDT`), GoPro (`GPMF`), Panasonic and Leica (`PANA`, `LEIC`),
    /// Pentax and Ricoh (`PXMN`, `thmb`, `RMKN`) name the body.
    static func readUserData(_ reader: ByteReader, udta: ISOBox, into fields: inout QuickTimeFields) {
        for box in ISOBox.children(in: reader, range: udta.payload) {
            switch box.type {
            case "©day":
                fields.userDataDate = fields.userDataDate ?? self.userDataText(reader, box: box)
            case "date":
                fields.userDataDate =
                    fields.userDataDate ?? reader.slice(box.payload.lowerBound, box.payload.count).flatMap(self.text)
            case "©xyz":
                fields.location = fields.location ?? self.userDataText(reader, box: box)
            case "meta":
                let items = self.metadataItems(reader, meta: box)
                fields.userDataDate = fields.userDataDate ?? items["©day"]
                // Where FFmpeg writes keys (an iPhone writes them in moov's own meta).
                self.take(items, into: &fields)
            case "©mak":
                fields.make = fields.make ?? self.userDataText(reader, box: box)
            case "©mod":
                fields.model = fields.model ?? self.userDataText(reader, box: box)
            case "NCDT":
                NikonMovieTags.body(reader, ncdt: box.payload).map { self.take($0, into: &fields) }
            case "GPMF":
                GoProMetadata.body(reader, gpmf: box.payload).map { self.take($0, into: &fields) }
            case "PANA", "LEIC":
                PanasonicMovieTags.body(reader, pana: box.payload).map { self.take($0, into: &fields) }
            case "PXMN", "thmb":
                PentaxMovieTags.body(reader, note: box.payload, model: fields.model).map {
                    self.take($0, into: &fields)
                }
            case "RMKN":
                PentaxMovieTags.body(reader, tiff: box.payload).map { self.take($0, into: &fields) }
            default:
                break
            }
        }
    }

    /// QuickTime user-data text: a 16-bit length and a 16-bit language, then the text; or an
    /// iTunes-style `data` box.
    static func userDataText(_ reader: ByteReader, box: ISOBox) -> String? {
        if let text = self.dataText(reader, item: box) { return text }
        let length = Int(reader.u16be(box.payload.lowerBound))
        guard let bytes = reader.slice(box.payload.lowerBound + 4, min(length, max(0, box.payload.count - 4))) else {
            return nil
        }
        return self.text(bytes)
    }

    /// UTF-8 text cut at the first NUL, trimmed; nil when empty.
    static func text(_ bytes: UnsafeRawBufferPointer) -> String? {
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }
}

import Foundation
import IngestCore

extension MediaIdentity {
    /// From a photo's EXIF: Make and Model in IFD0, the body's serial number, and Apple's maker
    /// note in the EXIF IFD.
    public init(_ structures: [TIFFStructure]) {
        self.init()
        var notes: [MakerNote] = []
        for tiff in structures {
            let text = { (tag: UInt16, kind: TIFFStructure.DirectoryKind) in
                MakerNote.cleaned(tiff.entry(tag, in: [kind]).flatMap(tiff.string))
            }
            if self.camera == nil {
                let (make, model) = (text(0x010F, .main(0)), text(0x0110, .main(0)))
                let parts = [make, model].compactMap { $0 }
                if !parts.isEmpty { self.camera = parts.joined(separator: " ") }
                (self.body.make, self.body.model) = (make, model)
            }
            // The EXIF's BodySerialNumber first, as exiftool shows it over the maker note's.
            self.body.serial = self.body.serial ?? text(0xA431, .exif)
            if let note = MakerNote(in: tiff) { notes.append(note) }
        }
        for note in notes {
            if self.contentIdentifier == nil, note.maker == .apple,
                let identifier = note.structure.entry(0x0011, in: [.makerNote]).flatMap(note.structure.string),
                !identifier.isEmpty
            {
                self.contentIdentifier = identifier
            }
        }
        guard self.body.serial == nil else { return }
        // Then DNG's CameraSerialNumber, the maker note's, and last the maker's internal number.
        let model = self.body.model
        self.body.serial =
            structures.lazy.compactMap { tiff in
                MakerNote.cleaned(tiff.entry(0xC62F, in: [.main(0)]).flatMap(tiff.string))
            }.first
            ?? notes.lazy.compactMap { $0.serial(model: model) }.first
            ?? notes.lazy.compactMap { $0.internalSerial(model: model) }.first
    }
}

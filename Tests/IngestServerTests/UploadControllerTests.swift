import Foundation
import Hummingbird
import HummingbirdTesting
import IngestArchive
import IngestCore
import IngestTesting
import Testing

/// `POST /api/mobile-upload`: a photo is stored whole and verified, once per event, or not at
/// all; the form is built by hand, byte for byte, as a client sends it.
@Suite struct UploadControllerTests {
    let server: ServerHarness

    init() throws {
        self.server = try ServerHarness()
    }

    @Test("An upload is stored with both thumbnails and answered 200; the same photo again is a 409 duplicate")
    func storedOnceThenDuplicate() async throws {
        let party = try await self.server.addEvent("Party", participants: ["alice"])
        let token = try await self.server.token()
        // Larger than 500 px, so that both thumbnails are made smaller than the original.
        let photo = try self.server.photo(width: 640, height: 480)
        let form = try MultipartForm(
            event: party.id, filename: "IMG_0001.jpg", bytes: photo.bytes, photoHash: "sha256:" + photo.sha256)
        let (first, second) = try await self.server.run { client in
            (try await client.upload(form, token: token), try await client.upload(form, token: token))
        }

        #expect(first.status == 200)
        #expect(first.json["success"] as? Bool == true)
        #expect(first.json["message"] as? String == "Photo uploaded successfully")
        let answered = try #require(first.json["photo"] as? [String: Any])
        #expect(answered["hash"] as? String == "sha256:" + photo.sha256)
        #expect(answered["fileSize"] as? Int == photo.bytes.count)
        #expect(answered["filename"] as? String == "IMG_0001.jpg")
        #expect(answered["eventId"] as? String == party.id)
        #expect(answered["id"] as? String == "photo_\(photo.sha256.prefix(12))")

        #expect(second.status == 409)
        #expect(second.json["success"] as? Bool == false)
        #expect(second.json["duplicate"] as? Bool == true)
        #expect(second.json["hash"] as? String == "sha256:" + photo.sha256)

        // Stored once: the index row, the original byte for byte, thumbnails of 500 and 200 px made by the server.
        let stored = try await self.server.archive.photos(inEvent: party.id)
        #expect(stored.map(\.hash.hex) == [photo.sha256])
        #expect(stored.first?.filename == "IMG_0001.jpg")
        #expect(stored.first?.size == photo.bytes.count)
        let hash = try #require(ContentHash(parsing: photo.sha256))
        let original = self.server.data.appending(ArchiveLayout.original(hash, kind: .jpeg))
        #expect(try Data(contentsOf: original) == Data(photo.bytes))
        #expect(self.server.originals.count == 1)
        for edge in [500, 200] {
            let thumbnail = self.server.data.appending(ArchiveLayout.thumbnail(hash, edge: edge))
            let size = try Fixtures.dimensions(of: thumbnail)
            #expect(max(size.width, size.height) == edge)
        }
        #expect(self.server.temporaryFiles.isEmpty)
    }

    @Test("The same photo in another event is stored there too, its original kept once")
    func oncePerEvent() async throws {
        let party = try await self.server.addEvent("Party", participants: ["alice"])
        let wedding = try await self.server.addEvent("Wedding", participants: ["alice"])
        let token = try await self.server.token()
        let photo = try self.server.photo()
        let hash = "sha256:" + photo.sha256
        let forParty = try MultipartForm(event: party.id, filename: "a.jpg", bytes: photo.bytes, photoHash: hash)
        let forWedding = try MultipartForm(event: wedding.id, filename: "b.jpg", bytes: photo.bytes, photoHash: hash)
        try await self.server.run { client in
            let toParty = try await client.upload(forParty, token: token)
            #expect(toParty.status == 200)
            let toWedding = try await client.upload(forWedding, token: token)
            #expect(toWedding.status == 200)
        }
        #expect(try await self.server.archive.photos(inEvent: party.id).map(\.filename) == ["a.jpg"])
        #expect(try await self.server.archive.photos(inEvent: wedding.id).map(\.filename) == ["b.jpg"])
        #expect(self.server.originals.count == 1)
    }

    @Test("A photoHash the bytes do not hash to is refused with 400 naming the real hash, and nothing is kept")
    func lyingHash() async throws {
        let party = try await self.server.addEvent("Party", participants: ["alice"])
        let token = try await self.server.token()
        let photo = try self.server.photo()
        let lie = "sha256:" + String(repeating: "0", count: 64)
        let form = try MultipartForm(event: party.id, filename: "IMG_0001.jpg", bytes: photo.bytes, photoHash: lie)
        let answer = try await self.server.run { client in try await client.upload(form, token: token) }
        #expect(answer.status == 400)
        #expect(answer.error == "the received file does not hash to photoHash")
        #expect(answer.json["hash"] as? String == "sha256:" + photo.sha256)
        #expect(try await self.server.archive.photos(inEvent: party.id).isEmpty)
        #expect(self.server.originals.isEmpty)
        #expect(self.server.temporaryFiles.isEmpty)
    }

    @Test("A fileSize that disagrees with the bytes that arrived is refused with 400")
    func wrongFileSize() async throws {
        let party = try await self.server.addEvent("Party", participants: ["alice"])
        let token = try await self.server.token()
        let photo = try self.server.photo()
        let form = try MultipartForm(
            event: party.id, filename: "IMG_0001.jpg", bytes: photo.bytes, photoHash: "sha256:" + photo.sha256,
            fileSize: photo.bytes.count + 1)
        let answer = try await self.server.run { client in try await client.upload(form, token: token) }
        #expect(answer.status == 400)
        #expect(answer.error == "fileSize says \(photo.bytes.count + 1) bytes, \(photo.bytes.count) arrived")
        #expect(self.server.originals.isEmpty)
    }

    @Test("A body over maxUploadBytes is refused with 413, and nothing is kept")
    func oversized() async throws {
        let party = try await self.server.addEvent("Party", participants: ["alice"])
        let token = try await self.server.token()
        let photo = try self.server.photo()
        let form = try MultipartForm(
            event: party.id, filename: "IMG_0001.jpg", bytes: photo.bytes, photoHash: "sha256:" + photo.sha256)
        // The form carries the whole JPEG (over 1 KB of noise), so it is over the limit.
        try #require(photo.bytes.count > 1_024)
        let answer = try await self.server.run(maxUploadBytes: 1_024) { client in
            try await client.upload(form, token: token)
        }
        #expect(answer.status == 413)
        #expect(answer.error == "the upload is larger than 1024 bytes")
        #expect(try await self.server.archive.photos(inEvent: party.id).isEmpty)
        #expect(self.server.temporaryFiles.isEmpty)
    }

    @Test("A file name with quotes, a backslash, a line break and non-ASCII is stored and listed exactly as sent")
    func oddFileName() async throws {
        let party = try await self.server.addEvent("Party", participants: ["alice"])
        let token = try await self.server.token()
        let photo = try self.server.photo()
        let name = "Léa's \"best\" shot\\2025;\r\nX-Injected: 1 写真.jpg"
        let form = try MultipartForm(
            event: party.id, filename: name, bytes: photo.bytes, photoHash: "sha256:" + photo.sha256)
        let listed: String? = try await self.server.run { client in
            let stored = try await client.upload(form, token: token)
            #expect(stored.status == 200)
            let answer = try await client.send(
                .get, "/functions/v1/api-events-uploaded-photos/\(party.id)", token: token)
            return (answer.json["photos"] as? [[String: Any]])?.first?["filename"] as? String
        }
        #expect(listed == name)
        #expect(try await self.server.archive.photos(inEvent: party.id).first?.filename == name)
    }

    @Test("A non-participant, an unknown event, a missing field or a body that is no form: refused, nothing kept")
    func refusedForms() async throws {
        let party = try await self.server.addEvent("Party", participants: ["alice"])
        let alice = try await self.server.token("alice")
        let mallory = try await self.server.token("mallory")
        let photo = try self.server.photo()
        let hash = "sha256:" + photo.sha256
        let valid = try MultipartForm(event: party.id, filename: "IMG_0001.jpg", bytes: photo.bytes, photoHash: hash)
        let unknownEvent = try MultipartForm(
            event: "no-such-event", filename: "IMG_0001.jpg", bytes: photo.bytes, photoHash: hash)
        var noPhotos = MultipartForm()
        noPhotos.field("eventId", party.id)
        noPhotos.file("file", filename: "IMG_0001.jpg", type: "image/jpeg", photo.bytes)
        var noFile = MultipartForm()
        noFile.field("eventId", party.id)
        noFile.field("photos", #"[{"photoHash":"\#(hash)"}]"#)
        let (withoutPhotosForm, withoutFileForm) = (noPhotos, noFile)
        try await self.server.run { client in
            let outsider = try await client.upload(valid, token: mallory)
            #expect(outsider.status == 403)
            let unknown = try await client.upload(unknownEvent, token: alice)
            #expect(unknown.status == 404)
            let withoutPhotos = try await client.upload(withoutPhotosForm, token: alice)
            #expect(withoutPhotos.status == 400)
            #expect(withoutPhotos.error == "photos must be a JSON array with one object")
            let withoutFile = try await client.upload(withoutFileForm, token: alice)
            #expect(withoutFile.status == 400)
            #expect(withoutFile.error == "the file part is missing")
            let notAForm = try await client.send(
                .post, "/api/mobile-upload", token: alice, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "{}"))
            #expect(notAForm.status == 400)
            #expect(notAForm.error == "the body must be multipart/form-data with a boundary")
        }
        #expect(try await self.server.archive.photos(inEvent: party.id).isEmpty)
        #expect(self.server.originals.isEmpty)
        #expect(self.server.temporaryFiles.isEmpty)
    }
}

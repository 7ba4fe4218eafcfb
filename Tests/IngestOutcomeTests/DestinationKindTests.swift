import IngestOutcome
import Testing

@Suite struct DestinationKindTests {
    @Test("An identity made of a kind reads back as that kind; a server's address is a server")
    func roundTrip() {
        #expect(DestinationKind(identity: DestinationKind.archive.identity(at: "/srv/photos")) == .archive)
        #expect(DestinationKind.archive.identity(at: "/srv/photos") == "archive:/srv/photos")
        #expect(DestinationKind(identity: DestinationKind.server.identity(at: "https://p.example")) == .server)
        #expect(DestinationKind(identity: "server:http://127.0.0.1:8080").isArchive == false)
        #expect(DestinationKind.place(in: "archive:/srv/photos") == "/srv/photos")
        #expect(DestinationKind.place(in: "server:http://127.0.0.1:8080") == "http://127.0.0.1:8080")
    }
}

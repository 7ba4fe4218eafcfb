import Foundation
import IngestCore
import Testing

@testable import IngestApp

/// When a watch starts again: the events the server lists changed, named for the user.
@Suite struct WatchRestartTests {
    let gala = Event(id: "1", name: "Gala", window: EventWindow(start: Date(timeIntervalSince1970: 0), end: nil))
    let party = Event(id: "2", name: "Party")

    @Test("A new event, one gone, a window moved; the same list in another order is no change")
    func changes() {
        #expect(WatchRestart.change(from: [self.gala, self.party], to: [self.party, self.gala]) == nil)
        #expect(WatchRestart.change(from: [self.gala], to: [self.gala, self.party]) == "new event Party")
        #expect(WatchRestart.change(from: [self.gala, self.party], to: [self.gala]) == "Party no longer listed")
        var moved = self.gala
        moved.window.start = Date(timeIntervalSince1970: 3_600)
        #expect(WatchRestart.change(from: [self.gala], to: [moved]) == "Gala's window changed")
    }

    @Test("The first reason asked for stands")
    func firstReason() {
        let restart = WatchRestart()
        #expect(restart.current == nil)
        restart.request(.reload)
        restart.request(.eventsChanged("new event Party"))
        #expect(restart.current == .reload)
    }
}

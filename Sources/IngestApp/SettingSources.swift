import Configuration
import IngestCore

/// Where each setting of a run came from, as swift-configuration reports its reads: the first
/// provider that had the key supplied it; none means the built-in default.
final class SettingSources: AccessReporter {
    struct Read {
        /// The provider that supplied the value, nil for the default.
        var provider: String?
        /// A provider had the key but its value was not of the setting's type.
        var isMalformed: Bool
    }

    private let reads = Locked<[String: Read]>([:])

    func report(_ event: AccessEvent) {
        let key = event.metadata.key.components.joined(separator: ".")
        var supplier: String?
        var malformed = event.conversionError != nil
        for result in event.providerResults {
            switch result.result {
            case .success(let lookup) where lookup.value != nil:
                supplier = result.providerName
            case .success:
                continue
            case .failure:
                supplier = result.providerName
                malformed = true
            }
            break
        }
        self.reads.withLock { $0[key] = Read(provider: supplier, isMalformed: malformed) }
    }

    func read(_ key: String) -> Read? {
        self.reads.withLock { $0[key] }
    }
}

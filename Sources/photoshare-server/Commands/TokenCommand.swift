import ArgumentParser
import IngestCore
import IngestServer

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print a signed token for a user.")

    @Option(help: "The user the token names.")
    var user: String

    @Option(help: ArgumentHelp("Seconds the token stays valid.", valueName: "seconds"))
    var ttl = 3600

    @Option(help: ArgumentHelp("access or upload; without it the token is good for both.", valueName: "kind"))
    var kind: String?

    @OptionGroup var secret: SecretOptions

    func validate() throws {
        if let kind = self.kind, TokenKind(rawValue: kind) == nil {
            throw ValidationError("--kind is access or upload.")
        }
    }

    func run() async throws {
        let authority = await TokenAuthority(secret: try self.secret.resolved())
        print(try await authority.sign(user: self.user, ttl: Double(self.ttl), kind: self.kind.flatMap(TokenKind.init)))
    }
}

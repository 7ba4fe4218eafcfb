import ArgumentParser
import Foundation
import Hummingbird
import IngestImaging
import IngestServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the PhotoShare API over the data folder.")

    @Option(help: ArgumentHelp("The data folder (an archive: originals, thumbnails, index.sqlite).", valueName: "dir"))
    var data: String

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one; the chosen port is printed).")
    var port = 8080

    @OptionGroup var secret: SecretOptions

    @Option(
        help: ArgumentHelp(
            "Refuse uploads larger than this many megabytes (413). Uploads stream to disk, so a large limit costs no memory; phone videos run to gigabytes.",
            valueName: "mb"))
    var maxUploadMb = 8_192

    @Option(help: ArgumentHelp("Fault injection: answer this share of requests with --fail-status.", valueName: "rate"))
    var failRate = 0.0

    @Option(help: ArgumentHelp("Status for --fail-rate.", valueName: "status"))
    var failStatus = 503

    @Option(
        help: ArgumentHelp("Fault injection: answer this share of requests 429 with Retry-After.", valueName: "rate"))
    var throttleRate = 0.0

    @Option(help: ArgumentHelp("Fault injection: close this share of upload connections mid-body.", valueName: "rate"))
    var dropRate = 0.0

    @Option(help: ArgumentHelp("Fault injection: delay every request by this many milliseconds.", valueName: "ms"))
    var latencyMs = 0

    @Option(
        help: ArgumentHelp("Fault injection: accept this share of uploads and never answer them.", valueName: "rate"))
    var hangRate = 0.0

    @Option(
        help: ArgumentHelp(
            "Fault injection: read upload bodies no faster than this (a slow reader).", valueName: "bytes/s"))
    var readBytesPerSecond = 0

    @Option(
        help: ArgumentHelp(
            "Fault injection: seed for the chance of each fault, to replay a drill (default: random, printed).",
            valueName: "n"))
    var faultSeed: UInt64?

    func validate() throws {
        let rates = [
            ("--fail-rate", self.failRate), ("--throttle-rate", self.throttleRate), ("--drop-rate", self.dropRate),
            ("--hang-rate", self.hangRate),
        ]
        for (name, rate) in rates where !(0...1).contains(rate) {
            throw ValidationError("\(name) is a share of requests, from 0 to 1.")
        }
        if !(400...599).contains(self.failStatus) {
            throw ValidationError("--fail-status must be a 4xx or 5xx status.")
        }
        if self.maxUploadMb < 1 { throw ValidationError("--max-upload-mb must be at least 1.") }
        // A typo here would serve a new, empty archive, every event's photos missing, without a word.
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: self.data, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError(
                "--data '\(self.data)': no such folder. Give the archive's folder, or make an empty one for a new archive."
            )
        }
    }

    func run() async throws {
        ImagingLibrary.tuneMemory()
        try ImagingLibrary.bootstrap()
        var faults = ServerConfiguration.Faults()
        faults.failRate = self.failRate
        faults.failStatus = self.failStatus
        faults.throttleRate = self.throttleRate
        faults.dropRate = self.dropRate
        faults.latencyMilliseconds = self.latencyMs
        faults.hangRate = self.hangRate
        faults.readBytesPerSecond = self.readBytesPerSecond
        faults.seed = self.faultSeed ?? UInt64.random(in: 0...UInt64.max)
        if !faults.isNone {
            FileHandle.standardError.write(
                Data("photoshare-server: fault injection with --fault-seed \(faults.seed)\n".utf8))
        }
        let configuration = ServerConfiguration(
            dataDirectory: self.data, host: self.host, port: self.port, secret: try self.secret.resolved(),
            maxUploadBytes: self.maxUploadMb << 20, faults: faults)
        let host = self.host
        if !FileManager.default.fileExists(atPath: (self.data as NSString).appendingPathComponent("index.sqlite")) {
            FileHandle.standardError.write(
                Data("photoshare-server: \(self.data) holds no archive yet: starting a new, empty one there\n".utf8))
        }
        let app = try await buildApplication(configuration) { port in
            // Tests and scripts read this line to learn the port.
            FileHandle.standardOutput.write(Data("photoshare-server listening on http://\(host):\(port)\n".utf8))
        }
        do {
            try await app.runService()
        } catch  where "\(error)".contains("Address already in use") {
            // SwiftNIO says only "bind(descriptor:ptr:bytes:): Address already in use (errno: 98)".
            throw ValidationError(
                "cannot listen on \(host):\(self.port): the port is in use (another server?). Choose another with --port, or --port 0 for a free one."
            )
        }
    }
}

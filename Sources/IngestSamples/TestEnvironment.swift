import Foundation

/// Where things are when the tests run: the repository, the shared corpus beside it, the tools.
public enum TestEnvironment {
    /// The repository's root, found from this file's place in it.
    public static let repository: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `../shared/corpus/real`: real camera and phone files.
    public static var realCorpus: URL {
        repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/real")
    }

    /// `../shared/corpus/media`: real videos, raw files and exiftool's container samples.
    public static var mediaCorpus: URL {
        repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/media")
    }

    /// The built `photoingest` executable, beside the test bundle in the build folder.
    public static var photoingest: URL {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            repository.appendingPathComponent(".build/debug"),
        ].compactMap { $0 }
        for folder in candidates {
            let url = folder.appendingPathComponent("photoingest")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return repository.appendingPathComponent(".build/debug/photoingest")
    }

    /// Every regular file under `folder`, sorted.
    public static func files(under folder: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        var files: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }
}

/// A fresh folder under the system's temporary folder, removed when this goes away.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init(_ label: String = "test") {
        self.url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "photoingest-\(label)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: self.url, withIntermediateDirectories: true)
    }

    /// A folder at `url` (its parents made too), removed with what it holds when this goes away.
    public init(at url: URL) {
        self.url = url
        try? FileManager.default.createDirectory(at: self.url, withIntermediateDirectories: true)
    }

    public var path: String { self.url.path }

    public func appending(_ component: String) -> URL { self.url.appendingPathComponent(component) }

    /// Writes `text` to the file at `relative` in this folder, making the folders above it.
    public func write(_ relative: String, _ text: String = "x") throws {
        let url = self.appending(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    deinit { try? FileManager.default.removeItem(at: self.url) }
}

/// The result of running a program to its end.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// True when the program was still running at its time limit and was killed: a hang.
    public var timedOut = false
}

/// Runs a program and waits for it, at most `timeout` seconds (then it is killed, so that a hang
/// fails its test instead of stalling the suite); output is collected in full.
@discardableResult
public func runProgram(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], currentDirectory: URL? = nil,
    timeout: TimeInterval = 600
) throws -> ProcessResult {
    let process = Process()
    process.executableURL =
        executable.hasPrefix("/") ? URL(fileURLWithPath: executable) : URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let killed = UnsafeTransfer<Bool>()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem {
        killed.value = true
        kill(pid, SIGKILL)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }
    // Read both pipes while the program runs, so that a full pipe never blocks it.
    let outData = UnsafeTransfer<Data>()
    let reader = Thread { outData.value = out.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !outData.isSet { usleep(1_000) }
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: outData.value ?? Data(), as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self), timedOut: killed.isSet)
}

/// A value handed from one thread to another once.
public final class UnsafeTransfer<Value>: @unchecked Sendable {
    public init() {}
    private let lock = NSLock()
    private var stored: Value?
    private var set = false
    public var value: Value? {
        get { self.lock.withLock { self.stored } }
        set {
            self.lock.withLock {
                self.stored = newValue
                self.set = true
            }
        }
    }
    public var isSet: Bool { self.lock.withLock { self.set } }

    /// Changes the value in place, under the lock: for values several threads add to.
    public func mutate(_ change: (inout Value) -> Void) {
        self.lock.withLock {
            if var value = self.stored {
                change(&value)
                self.stored = value
            }
        }
    }
}

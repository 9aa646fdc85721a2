import Foundation

/// Runs the built `ledger` executable on a temporary database, as a script would.
public struct LedgerProcess {
    public struct Output {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var json: [String: Any]? {
            try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        }
    }

    public let folder: URL
    public let db: String

    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        db = folder.appendingPathComponent("ledger.sqlite").path
    }

    public func cleanUp() { try? FileManager.default.removeItem(at: folder) }

    /// The binary next to the test bundle (`swift test` builds it: this target depends on it).
    public static let binary: URL = {
        if let explicit = ProcessInfo.processInfo.environment["LEDGER_BIN"] { return URL(fileURLWithPath: explicit) }
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ].map { $0.appendingPathComponent("ledger") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    @discardableResult
    public func run(_ args: [String], env: [String: String] = [:], useDbFlag: Bool = true) throws -> Output {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = args + (useDbFlag ? ["--db", db] : [])
        p.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["REPLEDGER_DB"] = nil
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        // stdout through a pipe drained before waiting (so large output cannot
        // block the child); stderr, always short, through a file.
        let out = Pipe()
        let errURL = folder.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        defer { try? FileManager.default.removeItem(at: errURL) }
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try err.close()
        return Output(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// The number of events, read through `ledger log --json`.
    public func eventCount() throws -> Int {
        try run(["log", "--json"]).stdout.split(separator: "\n").count
    }
}

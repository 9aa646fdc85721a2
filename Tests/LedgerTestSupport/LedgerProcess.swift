import Foundation

/// Runs the built `ledger` executable on a temporary database, as a script would.
public struct LedgerProcess: Sendable {
    public struct Output: Sendable {
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

    /// `under`: what `env` runs `ledger` under: settings (`NAME=value`), then a program that runs it
    /// (`faketime -f +2h`).
    @discardableResult
    public func run(_ args: [String], env: [String: String] = [:], useDbFlag: Bool = true, under: [String] = []) throws -> Output {
        let p = Process()
        p.executableURL = under.isEmpty ? Self.binary : URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = (under.isEmpty ? [] : under + [Self.binary.path]) + args + (useDbFlag ? ["--db", db] : [])
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

extension LedgerProcess {
    /// A `ledger` run still going: what it has written to standard error so
    /// far can be read while it runs (a sync saying it waits, say).
    public final class Running: @unchecked Sendable {
        let process: Process
        let errorFile: URL
        private let stdout: Pipe
        private var collected = Data()
        private let reader = DispatchGroup()

        /// Its standard input, when started with one (a code typed at a prompt).
        private let stdin: Pipe?

        init(process: Process, stdout: Pipe, errorFile: URL, stdin: Pipe? = nil) {
            self.process = process
            self.stdout = stdout
            self.errorFile = errorFile
            self.stdin = stdin
            // stdout drained as it comes, so large output cannot block the child.
            reader.enter()
            Thread.detachNewThread { [self] in
                collected = stdout.fileHandleForReading.readDataToEndOfFile()
                reader.leave()
            }
        }

        public var standardError: String { String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self) }

        /// Waits until standard error holds `text` or the process has ended,
        /// at most `seconds` → whether the text is there. Blocks its thread.
        public func waitForStandardError(containing text: String, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !standardError.contains(text), process.isRunning, Date() < deadline { usleep(20_000) }
            return standardError.contains(text)
        }

        /// Types a line on its standard input, as a person at the terminal would.
        public func type(_ line: String) {
            try? stdin?.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        }

        /// Waits for the end → its output. Blocks its thread.
        public func finish() -> Output {
            reader.wait()
            process.waitUntilExit()
            let output = Output(status: process.terminationStatus, stdout: String(decoding: collected, as: UTF8.self), stderr: standardError)
            try? FileManager.default.removeItem(at: errorFile)
            return output
        }
    }

    /// Starts `ledger ARGS` (no `--db` added) and returns at once; with `input`, what `Running.type` types is its standard input.
    public func start(_ args: [String], input: Bool = false) throws -> Running {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = args
        p.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["REPLEDGER_DB"] = nil
        p.environment = environment
        let out = Pipe()
        let errURL = folder.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        p.standardOutput = out
        p.standardError = try FileHandle(forWritingTo: errURL)
        let stdin = input ? Pipe() : nil
        if let stdin { p.standardInput = stdin }
        try p.run()
        return Running(process: p, stdout: out, errorFile: errURL, stdin: stdin)
    }
}

/// Runs blocking work (a process, `pg_ctl`) on a thread of its own and awaits
/// its result, so that it neither waits for nor holds one of the few threads
/// that every test's async code shares: on a loaded 2-core machine those can
/// be busy for tens of seconds, and a step that must follow another at once
/// (a promotion after a sync began to wait) must not queue behind them.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// Polls `condition` every `interval` seconds until it holds or `seconds` pass, sleeping between polls
/// without holding a thread (the test pool has few, and other tests' tasks need them meanwhile).
public func eventually(within seconds: Double, every interval: Double = 0.05, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { return false }
        try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
    }
    return true
}

/// Where two sequences first differ, in a line, or nil when they are the
/// same: `#expect(firstDifference(a, b) == nil)` fails with that line where
/// `#expect(a == b)` would print thousands of numbers.
public func firstDifference<T: Equatable>(_ got: [T], _ expected: [T]) -> String? {
    let shorter = min(got.count, expected.count)
    guard let i = (0..<shorter).first(where: { got[$0] != expected[$0] }) ?? (got.count == expected.count ? nil : shorter) else { return nil }
    func at(_ xs: [T]) -> String { i < xs.count ? "\(xs[i])" : "nothing" }
    return "\(got.count) against \(expected.count) expected; first difference at index \(i): \(at(got)) where \(at(expected)) was expected"
}

/// Returns once the wall clock reads a later millisecond than when called (a
/// millisecond at most): whatever is recorded after it is recorded strictly
/// later than whatever was recorded before. Waits for that, not for a fixed time.
public func waitForTheNextMillisecond() {
    func millisecond() -> Double { (Date().timeIntervalSince1970 * 1000).rounded() }
    let start = millisecond()
    while millisecond() <= start { sched_yield() }
}

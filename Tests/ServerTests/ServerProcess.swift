import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import NIOHTTP1

/// A real `ledger serve` on a free loopback port, over a fresh data
/// directory, or over a fresh database of the test PostgreSQL cluster when
/// `REPLEDGER_TEST_BACKEND=postgres` (`.ci/run` runs this suite both ways).
final class ServerProcess: @unchecked Sendable {
    let cli: LedgerProcess
    let data: String
    /// `--data DIR` or `--postgres URL`: for `ledger serve` and `ledger server`.
    let storage: [String]
    static let onPostgres = ProcessInfo.processInfo.environment["REPLEDGER_TEST_BACKEND"] == "postgres"
    private(set) var port = 0
    private var process: Process?
    private let errorLog: URL

    /// Flags for `ledger serve` only (limits, timeouts).
    private let serveFlags: [String]
    /// The open-file limit the server starts under (`ulimit -n`), if not the test's own.
    private let fileLimit: Int?

    init(cli: LedgerProcess, keepAlive: Double = 0.3, serveFlags: [String] = [], fileLimit: Int? = nil) throws {
        self.cli = cli
        self.serveFlags = serveFlags
        self.fileLimit = fileLimit
        data = cli.folder.appendingPathComponent("server").path
        if Self.onPostgres {
            guard let cluster = PostgresCluster.shared else { throw ServerFailure.didNotStart("no PostgreSQL: \(PostgresCluster.unavailableReason)") }
            storage = Self.withKeys(["--postgres", try cluster.createDatabase()], cli: cli)
        } else {
            storage = ["--data", data]
        }
        errorLog = cli.folder.appendingPathComponent("serve-\(UUID().uuidString).log")
        try start(keepAlive: keepAlive)
    }

    /// A server over storage given (several servers over one PostgreSQL database).
    init(cli: LedgerProcess, storage: [String], keepAlive: Double = 0.3, serveFlags: [String] = []) throws {
        self.cli = cli
        self.serveFlags = serveFlags
        fileLimit = nil
        data = cli.folder.appendingPathComponent("server-\(UUID().uuidString.prefix(8))").path
        self.storage = Self.withKeys(storage, cli: cli)
        errorLog = cli.folder.appendingPathComponent("serve-\(UUID().uuidString).log")
        try start(keepAlive: keepAlive)
    }

    /// PostgreSQL needs a key store: one per test folder, so servers sharing a database share it. It is
    /// made here as an operator makes it (a server never makes a missing one), so a person's sign-up,
    /// the first account some servers see, finds it.
    static func withKeys(_ storage: [String], cli: LedgerProcess) -> [String] {
        guard storage.contains("--postgres"), !storage.contains("--keys") else { return storage }
        let keys = cli.folder.appendingPathComponent("keys").path
        try? FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return storage + ["--keys", keys]
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// The published limits are off unless a test sets them (`RateLimitTests`): the load of the
    /// failover drills and the hardening tests is no client's, and would be paced by them.
    static func withRates(_ flags: [String]) -> [String] {
        guard !flags.contains(where: { $0.hasSuffix("-per-minute") }) else { return flags }
        let off = ["--key-requests-per-minute", "--account-requests-per-minute", "--key-appends-per-minute", "--account-appends-per-minute"]
        return flags + off.flatMap { [$0, "0"] }
    }

    /// Starts the server (again, on the same port when it ran before).
    func start(keepAlive: Double = 0.3) throws {
        let p = Process()
        p.executableURL = LedgerProcess.binary
        p.arguments = ["serve", "--listen", "127.0.0.1:\(port)", "--keep-alive", String(keepAlive)] + storage + Self.withRates(serveFlags)
        if let fileLimit {
            p.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", LedgerProcess.binary.path] + (p.arguments ?? [])
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
        }
        p.currentDirectoryURL = cli.folder
        let out = Pipe()
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        p.standardOutput = out
        p.standardError = try FileHandle(forWritingTo: errorLog)
        try p.run()
        process = p
        // The first line says where it listens: "listening on http://127.0.0.1:PORT (data: …)".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw ServerFailure.didNotStart(log) }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
            let bound = Int(text[range].split(separator: ":").last ?? "")
        else { throw ServerFailure.didNotStart(text) }
        port = bound
    }

    /// SIGKILL: no shutdown at all.
    func kill() {
        guard let p = process else { return }
        Foundation.kill(p.processIdentifier, SIGKILL)
        // Not waitUntilExit: Foundation learns of an exit through a socket that
        // a sibling started later (another server) may hold, so it could wait
        // for that sibling. A killed process is gone once it is a zombie.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, Self.isAlive(p.processIdentifier) { usleep(10_000) }
        process = nil
    }

    /// Sends `signal` to the server (SIGHUP: read the TLS certificate again).
    func send(_ signal: Int32) {
        guard let p = process else { return }
        Foundation.kill(p.processIdentifier, signal)
    }

    /// SIGTERM, then wait: a clean stop. Returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard let p = process else { return 0 }
        p.terminate()
        p.waitUntilExit()
        process = nil
        return p.terminationStatus
    }

    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    var isRunning: Bool { process?.isRunning ?? false }
    /// The most memory the running server has held so far (its peak resident set, `VmHWM`), in bytes.
    var peakMemory: Int? {
        guard let pid = process?.processIdentifier, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return nil }
        return kb * 1024
    }
    var log: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

    deinit { kill() }

    // MARK: Accounts through the CLI

    struct Account {
        var id: String
        var token: String
    }

    func createAccount(_ name: String, coach: Bool = false) throws -> Account {
        let out = try cli.run(["server", "account", "create", name, "--json"] + storage + (coach ? ["--coach"] : []), useDbFlag: false)
        guard let json = out.json, let id = json["accountId"] as? String, let token = json["token"] as? String else {
            throw ServerFailure.cli(out.stderr)
        }
        return Account(id: id, token: token)
    }

    func createToken(_ account: String, device: String) throws -> String {
        let out = try cli.run(["server", "token", "create", account, "--device", device, "--json"] + storage, useDbFlag: false)
        guard let token = out.json?["token"] as? String else { throw ServerFailure.cli(out.stderr) }
        return token
    }

    // MARK: HTTP

    struct Reply {
        var status: Int
        var body: String
        /// The answer's headers, by lowercased name (a repeated one joined with ", ").
        var headers: [String: String] = [:]
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] }
        var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
    }

    /// The whole body is read on the client's event loop (the future API's
    /// accumulator), not by this task: the tests block the two cooperative
    /// threads of a 2-core machine in CLI runs for seconds at a time, and a
    /// streamed body nobody was scheduled to read ended in `readTimeout` after
    /// 90 s (two tests at once, in two of four full runs on one day).
    func request(
        _ method: HTTPMethod, _ path: String, token: String?, body: String? = nil,
        headers: [(String, String)] = [], timeout: Int64 = 60
    ) async throws -> Reply {
        var request = try HTTPClient.Request(url: base + path, method: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (k, v) in headers { request.headers.add(name: k, value: v) }
        if let body { request.body = .string(body) }
        let response: HTTPClient.Response
        do {
            response = try await TestHTTP.client.execute(request: request, deadline: .now() + .seconds(timeout)).get()
        } catch ChannelError.ioOnClosedChannel {
            // The connection closed as the request went out: it never left, so it goes again on a new one.
            response = try await TestHTTP.client.execute(request: request, deadline: .now() + .seconds(timeout)).get()
        }
        var headers: [String: String] = [:]
        for (name, value) in response.headers { headers[name.lowercased()] = headers[name.lowercased()].map { $0 + ", " + value } ?? value }
        return Reply(status: Int(response.status.code), body: response.body.map { String(buffer: $0) } ?? "", headers: headers)
    }

    func get(_ path: String, token: String?) async throws -> Reply { try await request(.GET, path, token: token) }

    func post(_ path: String, token: String?, body: String) async throws -> Reply {
        try await request(.POST, path, token: token, body: body, headers: [("Content-Type", "application/json")])
    }
}

enum ServerFailure: Error {
    case didNotStart(String)
    case cli(String)
}

extension ServerProcess {
    /// An account whose phone recorded the demo history and synced it.
    func accountWithDemo(_ name: String = "alice", device: String = "phone") throws -> (account: Account, phone: Device) {
        let account = try createAccount(name)
        let phone = try Device(device, cli: cli, token: account.token)
        try phone.run(["demo", "--json"])
        guard try phone.sync(self, account: account.id).status == 0 else { throw ServerFailure.cli("the demo did not sync") }
        return (account, phone)
    }
}

/// A device: its own ledger file in the test's folder, with a token file.
struct Device: Sendable {
    let cli: LedgerProcess
    let name: String
    var db: String { cli.folder.appendingPathComponent("\(name).sqlite").path }
    var tokenFile: String { cli.folder.appendingPathComponent("\(name).token").path }

    init(_ name: String, cli: LedgerProcess, token: String) throws {
        self.cli = cli
        self.name = name
        try token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
    }

    @discardableResult
    func run(_ args: [String], env: [String: String] = [:], under: [String] = []) throws -> LedgerProcess.Output {
        try cli.run(args + ["--db", db], env: env, useDbFlag: false, under: under)
    }

    /// The value of `key` in the JSON answer of a command that must succeed.
    func id(_ args: [String], _ key: String) throws -> String {
        let out = try run(args + ["--json"])
        guard out.status == 0, let v = out.json?[key] as? String else { throw ServerFailure.cli("\(args): \(out.stderr)") }
        return v
    }

    @discardableResult
    func sync(_ server: ServerProcess, account: String) throws -> LedgerProcess.Output {
        try run(["sync", server.base, "--account", account, "--token-file", tokenFile, "--json"])
    }

    @discardableResult
    func sync() throws -> LedgerProcess.Output { try run(["sync", "--json"]) }

    var log: String { (try? run(["log", "--json"]).stdout) ?? "" }
}

extension Device {
    /// Starts `ledger ARGS` on this device's file and returns at once.
    func start(_ args: [String]) throws -> LedgerProcess.Running { try cli.start(args + ["--db", db]) }
}

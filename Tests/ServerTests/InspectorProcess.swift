import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import NIOHTTP1

/// A real `ledger inspect` on a free loopback port over a ledger file, and an
/// HTTP client's way in: the printed address's one-time code traded for the
/// session cookie.
final class InspectorProcess: @unchecked Sendable {
    let process: Process
    /// The address the first line printed, with its one-time code.
    let address: String
    let base: String

    convenience init(db: String, folder: URL) throws { try self.init(["--db", db], folder: folder) }

    /// `ledger inspect ARGUMENTS --listen 127.0.0.1:0` (`--db FILE` or `--bundle FILE`), or `ledger app` with `command`.
    init(_ arguments: [String], folder: URL, command: String = "inspect", environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = LedgerProcess.binary
        process.arguments = [command] + arguments + ["--listen", "127.0.0.1:0"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line: "inspector: open http://127.0.0.1:PORT/inspect/open?code=…" (`app: open …/app/open?code=…`).
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw ServerFailure.didNotStart("ledger \(command) printed no address") }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        let root = command == "app" ? "/app" : "/inspect"
        guard let range = text.range(of: #"http://127\.0\.0\.1:\d+"# + root + #"/open\?code=[0-9a-f]+"#, options: .regularExpression) else {
            throw ServerFailure.didNotStart(text)
        }
        address = String(text[range])
        base = String(address[..<address.range(of: root + "/open")!.lowerBound])
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
    }

    func get(_ path: String, cookie: String? = nil, json: Bool = false) async throws -> PageClient.Reply {
        try await PageClient(base: base).get(path, cookie: cookie, json: json)
    }

    /// SIGTERM, as Ctrl-C sends → its exit status once it has stopped (SIGKILL after 60 s).
    func stop() -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    func post(_ path: String, cookie: String?, form: [(String, String)], json: Bool = false) async throws -> PageClient.Reply {
        try await PageClient(base: base).post(path, cookie: cookie, form: form, json: json)
    }

    /// Opens the printed address → the session's `Cookie` header value (the code is spent).
    func signIn() async throws -> String {
        let reply = try await get(address)
        guard reply.status == 303, let set = reply.headers["Set-Cookie"].first, let pair = set.split(separator: ";").first else {
            throw ServerFailure.cli("opening the address answered \(reply.status)")
        }
        return String(pair)
    }
}

/// Two JSON documents are the same value (key order aside).
func sameJSON(_ a: Any?, _ b: Any?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return NSDictionary(dictionary: ["v": a]).isEqual(to: ["v": b])
}

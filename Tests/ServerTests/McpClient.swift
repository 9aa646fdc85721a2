import Foundation
import LedgerTestSupport

/// A real MCP client: the Python `mcp` package's `ClientSession`, run by `Tests/Clients/mcp_driver.py`
/// over stdio (a `ledger mcp` it starts) or Streamable HTTP (a server's `/mcp` with a key), sent one
/// request a line. `.ci/run` installs the package in a virtualenv and names its Python in
/// `REPLEDGER_MCP_PYTHON`; without it these tests are skipped unless `REPLEDGER_REQUIRE_MCP_CLIENT=1`.
final class McpClient: @unchecked Sendable {
    static let python = PythonClient.python("REPLEDGER_MCP_PYTHON")
    static var required: Bool { ProcessInfo.processInfo.environment["REPLEDGER_REQUIRE_MCP_CLIENT"] == "1" }
    static let available = PythonClient.imports("mcp", python: python)
    static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Clients/mcp_driver.py").path

    struct Failure: Error, CustomStringConvertible { var description: String }

    private let process = Process()
    private let input = Pipe()
    private let lines = LineQueue()
    private let errorFile: URL

    /// `ledger mcp ARGS` as the client's child process.
    convenience init(stdio args: [String], folder: URL) throws {
        let ledgerServer = LedgerProcess.binary.deletingLastPathComponent().appendingPathComponent("ledger-server").path
        try self.init(["stdio", ledgerServer, "mcp"] + args, folder: folder)
    }

    /// A server's `/mcp`, with a bearer key.
    convenience init(url: String, token: String, folder: URL) throws {
        try self.init(["http", url, token], folder: folder)
    }

    private init(_ args: [String], folder: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [Self.python, Self.driver] + args
        process.currentDirectoryURL = folder
        errorFile = folder.appendingPathComponent("mcp-client-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let queue = lines
        Thread.detachNewThread {
            var buffer = Data()
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    queue.push(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
            }
            queue.close()
        }
        guard let ready = lines.pop(deadline: Date().addingTimeInterval(120)), ready.contains("ready") else {
            throw Failure(description: "the MCP client did not connect: \(log.suffix(2000))")
        }
    }

    var log: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// One request → its answer (an `error` key when the session refused it). A wait of minutes at most.
    func send(_ request: [String: Any]) throws -> [String: Any] {
        let data = try JSONSerialization.data(withJSONObject: request)
        input.fileHandleForWriting.write(data + Data("\n".utf8))
        guard let line = lines.pop(deadline: Date().addingTimeInterval(180)),
            let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { throw Failure(description: "no answer to \(request["op"] ?? "?"): \(log.suffix(2000))") }
        return answer
    }

    /// A tool call → whether it was an error, its first text and its structured content.
    func call(_ tool: String, _ args: [String: Any] = [:]) throws -> (isError: Bool, text: String, structured: [String: Any]) {
        let a = try send(["op": "call", "tool": tool, "args": args])
        if let error = a["error"] as? String { throw Failure(description: "\(tool): \(error)") }
        return (a["isError"] as? Bool ?? true, (a["texts"] as? [String])?.first ?? "", a["structured"] as? [String: Any] ?? [:])
    }

    /// The head a read reported (its second text, `{"head":{"position","hash"}}`).
    func head() throws -> Int {
        let a = try send(["op": "call", "tool": "verify", "args": [:]])
        let texts = a["texts"] as? [String] ?? []
        guard texts.count == 2, let json = try JSONSerialization.jsonObject(with: Data(texts[1].utf8)) as? [String: Any],
            let head = json["head"] as? [String: Any], let position = head["position"] as? Int
        else { throw Failure(description: "verify gave no head: \(a)") }
        return position
    }

    func close() {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: errorFile)
    }

    deinit { if process.isRunning { process.terminate() } }
}

/// Lines read by one thread, taken by another with a deadline.
private final class LineQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []
    private var closed = false

    func push(_ line: String) {
        condition.withLock {
            lines.append(line)
            condition.broadcast()
        }
    }

    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    func pop(deadline: Date) -> String? {
        condition.withLock {
            while lines.isEmpty, !closed, condition.wait(until: deadline) {}
            return lines.isEmpty ? nil : lines.removeFirst()
        }
    }
}

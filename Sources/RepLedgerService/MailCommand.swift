import Foundation

/// Mail leaves through a command the operator chose (`--mail-command`,
/// e.g. `sendmail -t` or a relay's client): run by `/bin/sh -c`, given the
/// message (`To:`, `Subject:`, a blank line, the text) on its standard input
/// and the address in `REPLEDGER_MAIL_TO`. A command that fails or hangs past
/// 30 s is a 503; its output goes nowhere a client sees.
struct MailCommand {
    let command: String
    static let deadlineSeconds = 30.0

    func send(to address: String, subject: String, body: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["REPLEDGER_MAIL_TO"] = address
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let failed = APIError(status: 503, code: "mail", message: "the code could not be sent just now; try again", retryAfterSeconds: 30)
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do { try process.run() } catch { throw failed }
        let message = "To: \(address)\r\nSubject: \(subject)\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(body)\r\n"
        try? input.fileHandleForWriting.write(contentsOf: Data(message.utf8))
        try? input.fileHandleForWriting.close()
        guard done.wait(timeout: .now() + Self.deadlineSeconds) == .success else {
            process.terminate()
            throw failed
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw failed }
    }
}

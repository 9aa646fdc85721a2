import Foundation
import Logging

/// Mail leaves through a command the operator chose (`--mail-command`,
/// e.g. `sendmail -t` or a relay's client): run by `/bin/sh -c` as the
/// leader of a process group of its own (as Foundation starts every child), given the message (`To:`, `Subject:`, a blank line, the text)
/// on its standard input and the address in `REPLEDGER_MAIL_TO`. A command
/// that hangs past 30 s is killed with everything it started (its whole
/// process group: a timed-out `sh -c` would leave its `sleep` running); its
/// output goes nowhere a client sees.
struct MailCommand {
    let command: String
    static let deadlineSeconds = 30.0

    enum Failure: Error, CustomStringConvertible {
        case notStarted(String)
        case timedOut
        case exited(Int32)

        var description: String {
            switch self {
            case .notStarted(let why): "the mail command could not start: \(why)"
            case .timedOut: "the mail command ran past \(Int(MailCommand.deadlineSeconds)) s and was killed"
            case .exited(let status): "the mail command exited \(status)"
            }
        }
    }

    /// `started` is told the command's process group as it starts (the queue kills it when it closes).
    func send(
        to address: String, subject: String, body: String, deadline: Double = Self.deadlineSeconds, started: (Int32) -> Void = { _ in }
    ) throws(Failure) {
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
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do { try process.run() } catch { throw .notStarted("\(error)") }
        started(process.processIdentifier)
        let message = "To: \(address)\r\nSubject: \(subject)\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(body)\r\n"
        try? input.fileHandleForWriting.write(contentsOf: Data(message.utf8))
        try? input.fileHandleForWriting.close()
        guard done.wait(timeout: .now() + deadline) == .success else {
            // The shell leads its own process group, and what it started stays in it: the group goes, not the shell alone.
            kill(-process.processIdentifier, SIGKILL)
            throw .timedOut
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw .exited(process.terminationStatus) }
    }
}

/// Sign-in mail sent off the request path (security round four, item 1): a code request stores its code, puts the
/// message in this bounded queue and is answered at once; the queue's own threads run the mail command, at most
/// `senders` at a time, never on the workers that serve every account's reads and pushes. Past `capacity`
/// messages waiting, a request is refused (503) rather than queued without end. A message that fails is logged
/// (never its address or code) and dropped: the person asks for another code.
final class MailQueue: @unchecked Sendable {
    struct Message {
        var to: String
        var subject: String
        var body: String
    }

    static let capacity = 64
    static let senders = 2

    let mail: MailCommand
    private let lock = NSLock()
    private var waiting: [Message] = []
    private var running = 0
    /// The process groups of the commands running now.
    private var groups: Set<Int32> = []
    private var closed = false
    private let logger = Logger(label: "repledger.mail")

    init(command: String) { mail = MailCommand(command: command) }

    /// Queues a message → false when `capacity` are waiting already.
    func enqueue(_ message: Message) -> Bool {
        // Queued, and whether a sender must start for it, in one step under the lock.
        let (queued, spawn) = lock.withLock { () -> (Bool, Bool) in
            guard !closed, waiting.count < Self.capacity else { return (false, false) }
            waiting.append(message)
            guard running < Self.senders else { return (true, false) }
            running += 1
            return (true, true)
        }
        if spawn { Thread { [self] in drain() }.start() }
        return queued
    }

    /// Messages waiting or being sent: zero once the queue is idle.
    var inFlight: Int { lock.withLock { waiting.count + running } }

    /// Stops: what waits is dropped, what runs is killed with its process group, and nothing more is queued (the
    /// server stopping; a test ending).
    func close() {
        let running = lock.withLock { () -> Set<Int32> in
            closed = true
            waiting.removeAll()
            return groups
        }
        for group in running { kill(-group, SIGKILL) }
    }

    private func drain() {
        while let next = lock.withLock({ () -> Message? in
            guard !waiting.isEmpty else {
                running -= 1
                return nil
            }
            return waiting.removeFirst()
        }) {
            var group: Int32 = 0
            defer { _ = lock.withLock { groups.remove(group) } }
            do {
                try mail.send(to: next.to, subject: next.subject, body: next.body) { pid in
                    group = pid
                    let stopped = lock.withLock { () -> Bool in
                        groups.insert(pid)
                        return closed
                    }
                    if stopped { kill(-pid, SIGKILL) }
                }
            } catch {
                logger.warning("sign-in mail not sent: \(error.description)")
            }
        }
    }
}

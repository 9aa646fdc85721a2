import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSQLite

/// `ledger what-if --at N -- COMMAND …`: a recording command tried against
/// the log as it stood at position N, on a copy of that prefix that is
/// thrown away: what it would append and every view it would change. The
/// command runs as `ledger` runs it (the same parser, deciders and words),
/// so a command that would be refused there says why, and the ledger itself
/// is never written.
struct WhatIfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "what-if",
        abstract: "Try a recording command against the log as it stood at a position: what it would append and change, nothing written.",
        discussion: """
            The command after -- runs on a copy of the log up to --at (default: the head), made in a
            temporary file that is deleted afterwards; the answer is the command's own output, the events it
            would append, and what would change in history, records and entitlements (as `ledger diff` says it).

            Examples:
              ledger what-if --at 1200 -- workout log last deadlift --reps 5 --weight 180
              ledger what-if -- exercise merge "Floor Press" "Bench Press (Barbell)"
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The position of the log to try it at (default: the head).") var at: Int64?
    @Argument(parsing: .captureForPassthrough, help: "The command to try, after --.") var command: [String] = []

    /// Commands that reach past the ledger file (a server, other files) or that are not a command to try.
    static let notTried: Set<String> = [
        "serve", "server", "sync", "mcp", "coach", "inspect", "account", "export", "report", "snapshot", "what-if", "check-fixture",
    ]

    /// The command to try, and a `--db` given among its words: the ledger's, since the command runs on a copy.
    func split() -> (words: [String], db: String?) {
        var words: [String] = []
        var db: String?
        var i = command.first == "--" ? 1 : 0
        while i < command.count {
            if command[i] == "--db", i + 1 < command.count {
                db = command[i + 1]
                i += 2
                continue
            }
            if command[i].hasPrefix("--db=") { db = String(command[i].dropFirst("--db=".count)) } else { words.append(command[i]) }
            i += 1
        }
        return (words, db)
    }

    func validate() throws {
        let words = split().words
        guard let first = words.first else {
            throw ValidationError(
                "give the command to try after --, e.g. ledger what-if --at 1200 -- workout log last deadlift --reps 5 --weight 180")
        }
        if Self.notTried.contains(first) { throw ValidationError("what-if tries a command that records in the ledger; '\(first)' is not one") }
    }

    func run() throws {
        let (words, db) = split()
        var global = self.global
        if let db { global.db = db }
        let store = try global.openStore()
        let head = try store.headPosition()
        let at = self.at ?? head
        guard (0...head).contains(at) else { throw ValidationError("--at takes a position of the log, 0 to \(head)") }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-what-if-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("copy.sqlite").path
        let copy = try SQLiteEventStore(path: path, durability: .normal, access: .create)
        try Self.copy(store, through: at, into: copy)
        let before = try TrainingLogProjection.build(from: copy)

        // The command as `ledger` parses and runs it, on the copy, its output kept for the answer.
        let parsed: ParsableCommand
        do {
            parsed = try LedgerCommand.parseAsRoot(CommandLineShape.hoistingGlobalOptions(words) + ["--db", path])
        } catch {
            throw ValidationError("the command to try: \(LedgerCommand.message(for: error))")
        }
        var refusal: Error?
        let output = try Self.capturingStandardOutput {
            var command = parsed
            do { try command.run() } catch { refusal = error }
        }
        if let refusal {
            if !global.json { Console.out("Tried at #\(at): \(words.joined(separator: " ")) — refused there, nothing written.") }
            throw refusal
        }
        var appended: [EventEnvelope] = []
        try copy.read(EventQuery(from: at + 1)) { appended.append($0) }
        let after = try TrainingLogProjection.build(from: copy)
        let unit = try Ledger(store: copy).account().liftingUnit
        let changes = LogDiff.between(
            before, after, timeBefore: try store.event(at: at)?.recordedAt ?? Timestamp(millis: 0), timeAfter: .now(), unit: unit)
        if global.json {
            var changed = JSONValue.array([])
            if case .object(let pairs) = AuditQuery.diffDocument(from: at, to: at + Int64(appended.count), changes),
                let list = pairs.first(where: { $0.0 == "changes" })
            {
                changed = list.1
            }
            Console.json(
                .object([
                    ("at", .int(at)), ("command", .array(words.map(JSONValue.string))), ("output", .string(output)),
                    ("appended", .array(appended.map { .object([("type", .string($0.type.name)), ("payload", .raw($0.event.payloadJSON))]) })),
                    ("changes", changed),
                ]))
            return
        }
        Console.out("Tried at #\(at): \(words.joined(separator: " ")) — nothing written.")
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).dropLast(output.hasSuffix("\n") ? 1 : 0) {
            Console.out("  \(line)")
        }
        Console.out(
            appended.isEmpty
                ? "It would append nothing."
                : "It would append \(counted(appended.count, "event")): \(appended.map(\.type.name).joined(separator: ", ")).")
        Console.out(changes.isEmpty ? "No view would change." : "What would change:")
        for c in changes {
            Console.out(
                "  \(c.area.padding(toLength: 12, withPad: " ", startingAt: 0)) \(c.kind.padding(toLength: 8, withPad: " ", startingAt: 0)) \(c.subject): \(c.detail)"
            )
        }
    }

    /// The log up to `position` into an empty store, chained as the log is: its head hash is checked against the log's there.
    static func copy(_ store: any EventStore, through position: Int64, into copy: any EventStore) throws {
        try copy.appendCopy(of: store, through: position)
        guard try copy.head().hash == store.hash(at: position) else {
            throw IntegrityFailure(position: position, reason: "a copy of the log up to here does not chain as the log does")
        }
    }

    /// What `body` writes on standard output, captured in a temporary file instead of shown.
    static func capturingStandardOutput(_ body: () -> Void) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-what-if-out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        let saved = dup(STDOUT_FILENO)
        dup2(handle.fileDescriptor, STDOUT_FILENO)
        body()
        dup2(saved, STDOUT_FILENO)
        close(saved)
        try handle.close()
        return String(decoding: try Data(contentsOf: file), as: UTF8.self)
    }
}

import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerSQLite

/// `ledger account erase --yes` (DOMAIN.md §11).
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Your account on this device.", subcommands: [Erase.self])

    struct Erase: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "erase",
            abstract: "Erase the account on this device: the ledger, its snapshots, every file it exported and its sync token file.",
            discussion: """
                Without --yes it lists what it would remove and removes nothing. It cannot reach copies you made \
                yourself, files moved or changed since the ledger wrote them (it says which), or other devices. \
                The account on a server stays: its token file here is removed, and `/account` (or \
                `DELETE /v1/devices/ID`) revokes the token there; erasing the server's account is `/account` too.

                Example:
                  ledger account erase --db repledger.sqlite --yes
                """)
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Yes, erase it: this cannot be undone.") var yes = false

        func run() throws {
            let path = global.path
            guard yes else {
                let plan = try AccountErasure.plan(path: path)
                throw Refusal.confirmationNeeded(
                    "erasing is permanent: run again with --yes to remove \(plan.removed.count) files "
                        + "(\(plan.events) events, \(plan.snapshots) snapshots, \(plan.exports) exports, \(plan.photos) photos); nothing was removed")
            }
            let report = try AccountErasure.erase(path: path)
            if global.json {
                Console.json(
                    .object([
                        ("removed", .array(report.removed.map(JSONValue.string))), ("events", .int(report.events)),
                        ("snapshots", .int(report.snapshots)), ("exports", .int(Int64(report.exports))),
                        ("photos", .int(Int64(report.photos))), ("tokenFile", .optional(report.tokenFile)),
                        ("left", .array(report.left.map { .object([("path", .string($0.path)), ("reason", .string($0.reason))]) })),
                    ]))
                return
            }
            Console.out("Erased \(report.events) events and \(report.snapshots) snapshots; removed:")
            for path in report.removed { Console.out("  \(path)") }
            for l in report.left { Console.out("  left: \(l.path): \(l.reason)") }
        }
    }
}

/// Notes an export in the ledger, so `account erase` can remove it. A ledger that cannot be
/// written (read-only) still exports; it says the file will not be found by erasure.
enum ExportRecord {
    static func note(_ store: SQLiteEventStore, file: String, format: String) {
        let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
        do {
            guard let digest = AccountErasure.digest(ofFile: absolute) else { return }
            let ledger = Ledger(store: store, device: "cli")
            try ledger.execute { $0.recordExport(path: absolute, format: format, sha256: digest) }
        } catch {
            Console.error("warning: \(absolute) was written, but the ledger could not record it, so `ledger account erase` will not remove it")
        }
    }
}

import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSnapshots

struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot", abstract: "Snapshots of projection state, for fast answers at any point of the log.",
        subcommands: [Create.self, List.self, Prune.self])

    static func line(_ s: SnapshotInfo) -> [String] {
        [
            "\(s.id)", "\(s.key.projection) v\(s.key.projectionVersion)", "\(s.key.ruleSetId) v\(s.key.ruleSetVersion)", "#\(s.position)",
            "\(s.size / 1024) KiB", s.createdAt.iso8601, String(s.checksum.prefix(12)),
        ]
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Snapshot the training-log fold at the head (or at --position).")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The log position to snapshot (default: the head).") var position: Int64?
        @Option(help: "Also store view results under this rule set (default: the built-in rules).") var rules: String?

        func run() throws {
            let store = try global.openStore()
            let ruleSet = try RuleSet.load(option: rules)
            // One fold serves both: the fold's snapshot and the view results for instant head queries.
            let (log, _) = try TrainingLogSnapshots.load(store, through: position ?? .max)
            let info = try TrainingLogSnapshots.save(store, log)
            try ViewSnapshots.saveAll(store, log, rules: ruleSet)
            try RecordsMilestones.save(store, log, rules: ruleSet)
            if global.json {
                Console.json(SnapshotQuery.document(info))
            } else {
                Console.out("Snapshot \(info.id) at #\(info.position), \(info.size / 1024) KiB")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The stored snapshots, newest first.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let all = try SnapshotStore(try global.openStore()).list()
            if global.json { Console.json(SnapshotQuery.listDocument(all)); return }
            guard !all.isEmpty else { Console.out("No snapshots. Create one with `ledger snapshot create`."); return }
            Console.table(
                ["Id", "Projection", "Rules", "Position", "Size", "Created", "Checksum"], all.map(SnapshotCommand.line),
                rightAligned: [0, 3, 4])
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune", abstract: "Keep the newest K snapshots per projection, version and rules.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "How many to keep per key.") var keep = SnapshotPolicy.keep

        func validate() throws { if keep < 0 { throw ValidationError("--keep takes 0 or more") } }

        func run() throws {
            let deleted = try SnapshotStore(try global.openStore()).prune(keep: keep)
            if global.json { Console.json(.object([("deleted", .int(Int64(deleted)))])) } else { Console.out("Deleted \(deleted) snapshots") }
        }
    }
}

import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSnapshots

struct RebuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild", abstract: "Rebuild every projection from the log, and with --diff show what other rules change.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The rule set to rebuild under (JSON).") var rules: String?
    @Option(help: "The rules to compare against (default: the built-in rules).") var against: String?
    @Flag(help: "Report records gained and lost, e1RM points moved and volumes changed.") var diff = false

    func run() throws {
        let target = try RuleSet.load(option: rules)
        let current = try RuleSet.load(option: against)
        let store = try global.openStore()
        // A rebuild starts from nothing, so it trusts no earlier verification: the whole chain is walked first.
        _ = try store.verifiedHead(since: .genesis)
        let a = try RebuildQuery.answer(store, rules: target, against: diff ? current : nil)
        if global.json {
            Console.json(RebuildQuery.document(a))
            return
        }
        let (events, seconds, changes, log) = (a.events, a.seconds, a.changes, a.log)
        Console.out(
            "Rebuilt \(ProjectionRegistry.all.count) projections from \(events) events in \(String(format: "%.3f", seconds)) s under rules \(target.id) v\(target.version): \(a.recordCount) exercises with records, \(a.volumeWeeks) weeks of volume."
        )
        guard diff else { return }
        guard !changes.isEmpty else { Console.out("No differences against \(current.id) v\(current.version)."); return }
        Console.out("")
        RebuildDiffText.lines(changes, log: log, against: "\(current.id) v\(current.version)").forEach(Console.out)
    }
}

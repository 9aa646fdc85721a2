import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// `ledger body log|history`: weigh-ins (DOMAIN.md §15).
struct BodyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "body", abstract: "Bodyweight: weigh in, and the history of weigh-ins.",
        discussion: """
            Weights in kg, lb or stone and pounds; a bare number is in your bodyweight unit \\
            (`ledger settings bodyweight kg|lb|st`, else your lifting unit).

            Examples:
              ledger body log --weight 82.4kg
              ledger body log --weight "13st 2lb" --at 2026-11-23T07:00:00Z
              ledger body history
            """,
        subcommands: [Log.self, History.self])

    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "log", abstract: "Record a weigh-in.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "82.4kg, 181.5lb, 13st 2lb, or a bare number in your bodyweight unit.") var weight: String
        @OptionGroup var at: AtOption

        func run() throws {
            let ledger = try global.openLedger()
            let display = try ledger.account().effectiveBodyweightDisplay
            let parsed = try BodyweightText.parse(weight, display: display)
            let id = try ledger.execute(at: try at.time()) { try $0.logBodyweight(parsed) }
            respond(
                global, ["measurementId": id.lowercased],
                human: "Weighed in at \(BodyweightText.show(kg: parsed.kilograms, in: BodyweightText.typedDisplay(weight) ?? display))")
        }
    }

    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "history", abstract: "Every weigh-in, newest first.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions

        func run() throws {
            let log = try query.log(try global.openStore())
            let rows = BodyHistoryQuery.answer(log)
            if global.json {
                Console.json(BodyHistoryQuery.document(rows))
                return
            }
            guard !rows.isEmpty else { Console.out("No weigh-ins yet. Add one with `ledger body log --weight 82.4kg`."); return }
            let display = log.account.effectiveBodyweightDisplay
            Console.table(
                ["Date", "Bodyweight"], rows.map { [$0.at.localText, BodyweightText.show(kg: $0.kilograms, in: display)] },
                rightAligned: [1])
        }
    }
}

import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerQueries

extension ProgramCommand {
    /// `program percent P --day N EXERCISE PCT [--of tested|e1rm]`: a program day's exercise as a share of its max.
    struct Percent: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "percent",
            abstract: "Give a program day's exercise as a percentage of its max → {\"programId\",\"day\",\"exercise\",\"percent\",\"of\"}.",
            discussion: """
                `next` then loads that share of the tested max (`settings one-rep-max`), or with none or \
                --of e1rm of the estimate (`percent` says which and from when), rounded to what you load, \
                for the day's reps; a planned deload takes its share of it. --off returns the exercise to \
                its progression rule.

                Examples:
                  ledger program percent active --day 1 "Bench Press (Barbell)" 75
                  ledger program percent active --day 1 "Bench Press (Barbell)" 80 --of e1rm
                  ledger program percent active --day 1 "Bench Press (Barbell)" --off
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The program id, a unique prefix, or `active`.") var program: String
        @Option(help: "The day (1 is the program's first).") var day: Int
        @Argument(help: "The exercise, one of the day's.") var exercise: String
        @Argument(help: "The percentage of the max, 1 to 100.") var percent: Int?
        @Option(help: "Which max: tested or e1rm (default: the tested one when there is one).") var of: String?
        @Flag(help: "Take the percentage away.") var off = false
        @OptionGroup var at: AtOption

        func run() throws {
            guard off != (percent != nil) else { throw ValidationError(off ? "give a percentage or --off, not both" : "give a percentage, or --off") }
            let source = try of.map { try vocabulary(OneRepMaxSource.self, "max", $0) }
            let e = try global.openLedger().execute(at: try at.time()) {
                try $0.setPercentTarget(program: program, day: day, exercise: exercise, percent: percent, of: source)
            }
            let name = try Ledger(store: try global.openStore()).library().name(of: e.exerciseId)
            if global.json {
                return Console.json(
                    .object([
                        ("programId", .string(e.programId.lowercased)), ("day", .int(Int64(e.session + 1))), ("exercise", .string(name)),
                        ("exerciseId", .string(e.exerciseId)), ("percent", .optional(e.percent)), ("of", .optional(e.of?.rawValue)),
                    ]))
            }
            Console.out(
                e.percent.map { "Day \(day): \(name) at \($0) % of the \(e.of.map { $0 == .tested ? "tested max" : "e1RM" } ?? "max")" }
                    ?? "Day \(day): \(name) follows its progression rule again")
        }
    }
}

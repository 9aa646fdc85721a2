import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// `program mesocycle` and `program deload`: how a program's weeks run (issue 49, rows 4 and 5).
extension ProgramCommand {
    struct Mesocycle: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mesocycle", abstract: "Run a program as a mesocycle: accumulation weeks of rising effort and sets, then a deload.",
            discussion: """
                The block has 2 to 16 weeks and repeats when it ends. Each accumulation week's target effort \
                steps from mesocycleStartRIR to mesocycleEndRIR, and each muscle's week gains \
                mesocycleSetsPerMuscle sets per week; the last week is a deload (deloadIntensity, \
                deloadVolume). The numbers are rules (docs/RULES.md), so `rebuild --diff` shows a change's \
                effect. `program show`, `next`, the calendar and a coach's compliance follow the week.

                Examples:
                  ledger program mesocycle active --weeks 5
                  ledger program mesocycle active --weeks 6 --starts 2026-11-30
                  ledger program mesocycle active --off
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The program id, a unique prefix, or `active`.") var program: String = "active"
        @Option(help: "The block's weeks, 2–16, the last a deload.") var weeks: Int?
        @Option(help: "Week 1's first day, YYYY-MM-DD (default: today).") var starts: String?
        @Flag(help: "Take the program's planned weeks away.") var off = false
        @OptionGroup var at: AtOption

        func run() throws { try plan(global, program, .mesocycle, weeks: weeks, starts: starts, off: off, at: at, flag: "--weeks") }
    }

    struct Deload: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deload", abstract: "Plan a deload week every N weeks of a program.",
            discussion: """
                Every Nth week (2–16) from the start is a deload: loads × deloadIntensity and sets × \
                deloadVolume (docs/RULES.md); the weeks between run as the program has them. It replaces a \
                mesocycle, and a mesocycle replaces it.

                Examples:
                  ledger program deload active --every 4
                  ledger program deload active --off
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The program id, a unique prefix, or `active`.") var program: String = "active"
        @Option(help: "Weeks from one deload to the next, 2–16 (the deload is the last of them).") var every: Int?
        @Option(help: "Week 1's first day, YYYY-MM-DD (default: today).") var starts: String?
        @Flag(help: "Take the program's planned weeks away.") var off = false
        @OptionGroup var at: AtOption

        func run() throws { try plan(global, program, .deloadCycle, weeks: every, starts: starts, off: off, at: at, flag: "--every") }
    }
}

/// Records the plan and answers `{"programId","kind","weeks","startsOn"}` (weeks 0 when taken away).
private func plan(
    _ global: GlobalOptions, _ program: String, _ kind: ProgramBlockKind, weeks: Int?, starts: String?, off: Bool, at: AtOption, flag: String
) throws {
    guard off != (weeks != nil) else { throw ValidationError(off ? "give \(flag) or --off, not both" : "give \(flag) N, or --off") }
    let e = try global.openLedger().execute(at: try at.time()) { try $0.planWeeks(program, kind: kind, weeks: weeks, startsOn: starts) }
    if global.json {
        return Console.json(
            .object([
                ("programId", .string(e.programId.lowercased)), ("kind", .string(e.kind.rawValue)), ("weeks", .int(Int64(e.weeks))),
                ("startsOn", e.weeks == 0 ? .null : .string(e.startsOn)),
            ]))
    }
    let id = e.programId.lowercased.shortId
    guard e.weeks > 0 else { return Console.out("Program \(id) runs week after week as written") }
    Console.out(
        e.kind == .mesocycle
            ? "Program \(id): a mesocycle of \(e.weeks) weeks from \(e.startsOn), the last a deload"
            : "Program \(id): a deload every \(e.weeks) weeks from \(e.startsOn)")
}

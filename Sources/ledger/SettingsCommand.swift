import ArgumentParser
import RepLedgerCore

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Your settings.", subcommands: [Unit.self])

    struct Unit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the lifting unit (kg or lb) used for bare weights and display. History is never rewritten.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "kg or lb") var unit: String
        @OptionGroup var at: AtOption

        func run() throws {
            let u = try vocabulary(WeightUnit.self, "unit", unit)
            let ledger = try global.openLedger()
            try ledger.execute(at: try at.time()) { $0.setLiftingUnit(u) }
            respond(global, ["unit": u.rawValue], human: "Lifting unit is now \(u.rawValue)")
        }
    }
}

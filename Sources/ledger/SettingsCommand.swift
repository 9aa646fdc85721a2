import ArgumentParser
import LedgerShell
import RepLedgerCore

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Your settings.", subcommands: [Unit.self, Bodyweight.self, Distance.self])

    struct Unit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unit",
            abstract: "Set the lifting unit (kg or lb) used for bare weights and display; st sets bodyweight to stone and pounds.",
            discussion: "History is never rewritten: each weight keeps the unit it was entered in.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "kg, lb, or st (stone and pounds, for bodyweight only)") var unit: String
        @OptionGroup var at: AtOption

        func run() throws {
            let ledger = try global.openLedger()
            // Nobody loads a barbell in stone: st is a bodyweight display, the lifting unit stays.
            if ["st", "stone"].contains(unit.lowercased()) {
                try ledger.execute(at: try at.time()) { $0.setBodyweightDisplay(.stoneLb) }
                respond(global, ["bodyweight": "st"], human: "Bodyweight now shows in stone and pounds")
                return
            }
            let u = try vocabulary(WeightUnit.self, "unit", unit)
            try ledger.execute(at: try at.time()) { $0.setLiftingUnit(u) }
            respond(global, ["unit": u.rawValue], human: "Lifting unit is now \(u.rawValue)")
        }
    }

    struct Distance: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "distance", abstract: "Show distances in km or mi (they are kept in metres, whatever unit they were typed in).",
            discussion: "Example: ledger settings distance mi")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "km or mi") var unit: String
        @OptionGroup var at: AtOption

        func run() throws {
            let u: DistanceUnit
            switch unit.lowercased() {
            case "km", "kilometres", "kilometers": u = .km
            case "mi", "mile", "miles": u = .mi
            default: throw Refusal.unknownVocabulary(kind: "distance unit", value: unit, allowed: ["km", "mi"])
            }
            try global.openLedger().execute(at: try at.time()) { $0.setDistanceUnit(u) }
            respond(global, ["distance": u.rawValue], human: "Distances now show in \(u == .km ? "km" : "miles")")
        }
    }

    struct Bodyweight: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bodyweight", abstract: "Set how bodyweight shows: kg, lb or st (stone and pounds).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "kg, lb or st") var unit: String
        @OptionGroup var at: AtOption

        func run() throws {
            let display: BodyweightDisplay
            switch unit.lowercased() {
            case "kg": display = .kg
            case "lb", "lbs": display = .lb
            case "st", "stone", "stonelb": display = .stoneLb
            default: throw Refusal.unknownVocabulary(kind: "bodyweight unit", value: unit, allowed: ["kg", "lb", "st"])
            }
            try global.openLedger().execute(at: try at.time()) { $0.setBodyweightDisplay(display) }
            respond(
                global, ["bodyweight": display == .stoneLb ? "st" : display.rawValue],
                human: "Bodyweight now shows in \(display == .stoneLb ? "stone and pounds" : display.rawValue)")
        }
    }
}

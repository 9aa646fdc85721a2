import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerQueries

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Your settings.",
        subcommands: [Show.self, Unit.self, Bodyweight.self, Distance.self, Plates.self, Rest.self, EffortScaleSetting.self, OneRepMax.self])

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Every setting at once → {\"unit\",\"bodyweight\",\"distance\",\"effort\",\"plates\",\"rest\"}.",
            discussion: "What the app's Settings screen reads (`GET /v1/accounts/{id}/settings` answers the same document).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            // Read only: a ledger not made yet shows the defaults and is not created for it.
            let ledger = (try? global.openReadOnly()).map { Ledger(store: $0) }
            let account = (try? ledger?.account()) ?? AccountState(), library = (try? ledger?.library()) ?? LibraryState()
            if global.json { return Console.json(SettingsQuery.document(account: account, library: library)) }
            let plates = PlateSettingsQuery.answer(account: account), rest = RestSettingsQuery.answer(account: account, library: library)
            let display = account.effectiveBodyweightDisplay
            Console.out("Lifting unit: \(account.liftingUnit.rawValue)")
            Console.out("Bodyweight in: \(display == .stoneLb ? "stone and pounds" : display.rawValue)")
            Console.out("Distances in: \(account.distanceUnit.rawValue)")
            Console.out("Effort as: \(account.effortScale == .rpe ? "RPE" : "reps in reserve (RIR)")")
            Console.out(
                "Bar and plates: \(plates.isDefault ? "the defaults, " : "")a \(plates.bar.formatted) \(plates.unit.rawValue) bar; plates "
                    + "\(plates.plates.map(\.formatted).joined(separator: ", ")) \(plates.unit.rawValue)")
            Console.out("Rest: \(Measure.clock(Double(rest.restSeconds))) between sets; auto-start \(rest.autoStart ? "on" : "off")")
        }
    }

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
                let changed = try settle(ledger, at: try at.time()) { try $0.setBodyweightDisplay(.stoneLb) }
                respondSetting(
                    global, ("bodyweight", "st"), changed: changed, human: "Bodyweight \(changed ? "now shows" : "shows") in stone and pounds")
                return
            }
            let u = try vocabulary(WeightUnit.self, "unit", unit)
            let changed = try settle(ledger, at: try at.time()) { try $0.setLiftingUnit(u) }
            respondSetting(global, ("unit", u.rawValue), changed: changed, human: "Lifting unit is \(changed ? "now" : "already") \(u.rawValue)")
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
            let changed = try settle(try global.openLedger(), at: try at.time()) { try $0.setDistanceUnit(u) }
            respondSetting(
                global, ("distance", u.rawValue), changed: changed,
                human: "Distances \(changed ? "now show" : "already show") in \(u == .km ? "km" : "miles")")
        }
    }

    struct Plates: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plates",
            abstract: "Your bar and plates → {\"unit\",\"bar\",\"plates\"}: what `plates` loads and `next` rounds barbell targets to.",
            discussion: """
                Without options, shows them. Plates are in the bar's unit; --default goes back to the unit's defaults.

                Examples:
                  ledger settings plates --bar 15kg --plates 20,10,5,2.5,1.25
                  ledger settings plates --bar 45lb --plates 45,25,10,5,2.5
                  ledger settings plates --default
                """)
        @OptionGroup var global: GlobalOptions
        @Option(help: "The bar, e.g. 20kg or 45lb (default: the unit's standard bar).") var bar: String?
        @Option(help: "The plate sizes you have, comma-separated.") var plates: String?
        @Flag(name: .customLong("default"), help: "Back to the defaults.") var reset = false
        @OptionGroup var at: AtOption

        func validate() throws {
            if reset, bar != nil || plates != nil { throw ValidationError("--default takes no --bar or --plates") }
            if bar != nil, plates == nil { throw ValidationError("give --plates with --bar") }
        }

        func run() throws {
            // Shown without options: read only, and no ledger is created to show the defaults.
            guard reset || plates != nil else {
                return show((try? global.openReadOnly()).flatMap { try? Ledger(store: $0).account() } ?? AccountState())
            }
            let ledger = try global.openLedger()
            let account = try ledger.account()
            let barWeight = try bar.map { try Weight.parse($0, defaultUnit: account.liftingUnit) }
            let unit = barWeight?.unit ?? account.liftingUnit
            let sizes = try plates.map { try PlatesCommand.sizes($0, unit: unit) } ?? []
            let changed = try settle(ledger, at: try at.time()) {
                try $0.setPlateInventory(unit: unit, bar: barWeight?.value ?? PlateLoading.defaultBar(unit), plates: sizes)
            }
            show(try ledger.account(), changed: changed)
        }

        /// The bar and plates; after a change, whether it changed anything (`changed` in JSON, "Already so" for a person).
        func show(_ now: AccountState, changed: Bool? = nil) {
            let a = PlateSettingsQuery.answer(account: now, changed: changed)
            if global.json { return Console.json(PlateSettingsQuery.document(a)) }
            let list = a.plates.map(\.formatted).joined(separator: ", ")
            let already = changed == false ? "Already so: " : ""
            Console.out("\(already)\(a.isDefault ? "Default: " : "")a \(a.bar.formatted) \(a.unit.rawValue) bar; plates \(list) \(a.unit.rawValue)")
        }
    }

    struct EffortScaleSetting: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "effort", abstract: "Show effort as RPE or as reps in reserve (RIR) → {\"effort\"}.",
            discussion: """
                Each set keeps the scale it was entered in; the other is derived (RPE = 10 − RIR) wherever it shows.

                Example: ledger settings effort rir
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "rpe or rir") var scale: String
        @OptionGroup var at: AtOption

        func run() throws {
            let chosen = try vocabulary(EffortScale.self, "effort scale", scale)
            let changed = try settle(try global.openLedger(), at: try at.time()) { try $0.setEffortScale(chosen) }
            respondSetting(
                global, ("effort", chosen.rawValue), changed: changed,
                human: "Effort \(changed ? "now shows" : "already shows") as \(chosen == .rpe ? "RPE" : "reps in reserve (RIR)")")
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
            let changed = try settle(try global.openLedger(), at: try at.time()) { try $0.setBodyweightDisplay(display) }
            respondSetting(
                global, ("bodyweight", display == .stoneLb ? "st" : display.rawValue), changed: changed,
                human: "Bodyweight \(changed ? "now shows" : "already shows") in \(display == .stoneLb ? "stone and pounds" : display.rawValue)")
        }
    }
}

/// Runs a settings change. A setting that already has the value is no
/// failure for a set-up script run twice: nothing is appended (not even a
/// new file's library), the command says so and exits 0.
/// - Returns: whether the change was appended.
func settle(_ ledger: Ledger, at time: Timestamp?, _ change: (inout CommandSession) throws -> Void) throws -> Bool {
    do {
        try ledger.execute(at: time, change)
        return true
    } catch Refusal.nothingToChange {
        return false
    }
}

/// A setting's answer: its value and whether it changed, as JSON, or a line for a person.
func respondSetting(_ global: GlobalOptions, _ value: (key: String, value: String), changed: Bool, human: String) {
    if global.json {
        Console.json(.object([(value.key, .string(value.value)), ("changed", .bool(changed))]))
    } else {
        Console.out(changed ? human : human + "; nothing to change")
    }
}

import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerQueries

/// `ledger plates WEIGHT`: what goes on each side of the bar.
struct PlatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plates", abstract: "The plates on each side of the bar for a weight, or the nearest weights you can load.",
        discussion: """
            Plates come in pairs; the fewest plates win, then the heavier ones. A bare number is in your \
            lifting unit (kg on a new ledger); the bar and plates are in the weight's unit.
            Defaults: your bar and plates (`ledger settings plates`), else a 20 kg bar and 25, 20, 15, 10, 5, 2.5 \
            and 1.25 kg plates; in lb, a 45 lb bar and 45, 35, 25, 10, 5 and 2.5 lb plates.

            Examples:
              ledger plates 102.5kg
              ledger plates 225lb
              ledger plates 61kg --bar 15kg --plates 20,10,5,2.5
            """)
    /// Plate sizes as typed (`25,20,15` or `45lb,25lb`), all in `unit`.
    static func sizes(_ list: String, unit: WeightUnit) throws -> [Double] {
        try list.split(separator: ",").map { item -> Double in
            let plate = try Weight.parse(String(item).trimmingCharacters(in: .whitespaces), defaultUnit: unit)
            guard plate.unit == unit else { throw ValidationError("give the plates in \(unit.rawValue), the weight's unit") }
            return plate.value
        }
    }

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The weight to load, e.g. 102.5kg or 225lb.") var weight: String
    @Option(help: "The bar's weight (default: 20 kg or 45 lb).") var bar: String?
    @Option(help: "The plate sizes you have, comma-separated, in the weight's unit.") var plates: String?

    func run() throws {
        // The lifter's unit reads a bare number, and their bar and plates are the defaults; no ledger is created for them.
        let account = (try? global.openReadOnly()).flatMap { try? Ledger(store: $0).account() } ?? AccountState()
        if bar == nil, plates == nil { return show(try PlatesQuery.answer(weight, account: account)) }
        let target = try Weight.parse(weight, defaultUnit: account.liftingUnit)
        let owned = account.plateInventory(for: target.unit)
        let barWeight = try bar.map { try Weight.parse($0, defaultUnit: target.unit) }
        if let barWeight, barWeight.unit != target.unit {
            throw ValidationError("give the bar in \(target.unit.rawValue), the weight's unit")
        }
        let sizes = try plates.map { try Self.sizes($0, unit: target.unit) }
        show(try PlateLoading.load(target.value, unit: target.unit, bar: barWeight?.value ?? owned.bar, plates: sizes ?? owned.plates))
    }

    /// The loading, as JSON or as lines for a person.
    func show(_ loading: PlateLoading) {
        let target = Weight(loading.target, loading.unit)
        if global.json {
            Console.json(PlatesQuery.document(loading))
            return
        }
        let u = target.unit.rawValue
        func side(_ l: PlateLoading.Load) -> String {
            l.perSide.isEmpty
                ? "the bar alone"
                : l.perSide.map { $0.count == 1 ? $0.plate.formatted : "\($0.count) × \($0.plate.formatted)" }.joined(separator: " + ")
                    + " \(u) a side"
        }
        if let exact = loading.exact {
            Console.out("\(target.value.formatted) \(u): \(side(exact)) on a \(loading.bar.formatted) \(u) bar")
            return
        }
        Console.out("\(target.value.formatted) \(u) cannot be loaded exactly with these plates on a \(loading.bar.formatted) \(u) bar")
        if let below = loading.below { Console.out("  below: \(below.total.formatted) \(u), \(side(below))") }
        if let above = loading.above { Console.out("  above: \(above.total.formatted) \(u), \(side(above))") }
    }
}

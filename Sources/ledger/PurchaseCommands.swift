import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSnapshots

struct PurchaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purchase", abstract: "Record a store transaction (a known transaction id records nothing: restores are safe).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The product: \(Product.allCases.map(\.rawValue).joined(separator: ", ")).") var product: String
    @Option(help: "The store's transaction id.") var transaction: String
    @Option(help: "The original transaction id (renewals share it; default: the transaction id).") var original: String?
    @Option(help: "When it was bought (ISO 8601).") var purchased: String
    @Option(help: "When it expires (ISO 8601, exclusive).") var expires: String
    @Option(help: "The App Store's signed transaction (StoreKit 2 JWS), or @FILE holding it: a server counts a Coach product only with one that verifies.")
    var signedTransaction: String?

    func run() throws {
        let p = try vocabulary(Product.self, "product", product)
        let bought = try parseTime(purchased), until = try parseTime(expires)
        let jws = try signedTransaction.map { text -> String in
            guard text.hasPrefix("@") else { return text }
            guard let data = FileManager.default.contents(atPath: String(text.dropFirst())) else {
                throw ValidationError("cannot read the signed transaction from \(text.dropFirst())")
            }
            return String(decoding: data, as: UTF8.self)
        }
        let (recorded, attached) = try global.openLedger().execute(at: bought) { session -> (Bool, Bool) in
            let recorded = try session.recordPurchase(product: p, transactionId: transaction, originalTransactionId: original,
                                                      purchasedAt: bought, expiresAt: until)
            let attached = try jws.map { try session.attachReceipt(transactionId: transaction, signedTransaction: $0) } ?? false
            return (recorded, attached)
        }
        if global.json {
            Console.json(.object([("recorded", .bool(recorded)), ("receiptAttached", .bool(attached))]))
        } else if recorded || attached {
            Console.out((recorded ? "Recorded \(p.rawValue) until \(until.iso8601)" : "Transaction \(transaction) was recorded already")
                        + (attached ? ", with the store's signed transaction" : ""))
        } else {
            Console.out("Already recorded: transaction \(transaction) is in the ledger. Nothing appended.")
        }
    }
}

struct RefundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refund", abstract: "Record a refund: the product ends at that time.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The transaction id.") var transaction: String
    @Option(help: "When the refund took effect (ISO 8601).") var at: String

    func run() throws {
        let t = try parseTime(at)
        try global.openLedger().execute(at: t) { try $0.refund(transactionId: transaction, at: t) }
        respond(global, [:], human: "Refunded \(transaction)")
    }
}

struct UpsellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "upsell", abstract: "The soft upsell.", subcommands: [Dismiss.self])

    struct Dismiss: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "dismiss", abstract: "Dismiss the upsell for good.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var at: AtOption

        func run() throws {
            try global.openLedger().execute(at: try at.time()) { $0.dismissUpsell() }
            respond(global, [:], human: "Upsell dismissed")
        }
    }
}

struct EntitlementsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entitlements", abstract: "Free, Pro or Coach as of a time (past or future).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Option(help: "The time to answer for (default: the --as-of time, else now).") var at: String?

    func run() throws {
        let a = try EntitlementsQuery.answer(try global.openStore(), try query.scope(), at: at)
        if global.json { Console.json(EntitlementsQuery.document(a)); return }
        let (s, t) = (a.state, a.at)
        let plan = s.isCoach ? "Coach" : s.isPro ? "Pro" : "Free"
        Console.out("\(plan) as of \(t.iso8601)")
        if !s.activeProducts.isEmpty { Console.out("  active: \(s.activeProducts.map(\.rawValue).joined(separator: ", "))") }
        Console.out("  templates: \(s.liveTemplates) of \(s.templateLimit.map(String.init) ?? "unlimited")")
        if s.softUpsell { Console.out("  With \(counted(s.completedWorkouts, "workout")) completed on Free, the app may now suggest Pro.") }
    }
}


struct RebuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild", abstract: "Rebuild every projection from the log, and with --diff show what other rules change.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The rule set to rebuild under (JSON).") var rules: String?
    @Option(help: "The rules to compare against (default: the built-in rules).") var against: String?
    @Flag(help: "Report records gained and lost, e1RM points moved and volumes changed.") var diff = false

    func run() throws {
        let target = try rules.map { try RuleSet.load(path: $0) } ?? .default
        let current = try against.map { try RuleSet.load(path: $0) } ?? .default
        let store = try global.openStore()
        let start = DispatchTime.now().uptimeNanoseconds
        var registry = ProjectionRegistry()
        let events = try registry.catchUp(from: store)
        // Views are computed too, so the time covers every projection under the target rules.
        let records = PersonalRecordsProjection.compute(registry.log, rules: target)
        let volume = VolumeProjection.rows(registry.log, by: .week, rules: target)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let changes = diff ? RuleSetDiff.changes(registry.log, from: current, to: target) : []
        let log = registry.log

        if global.json {
            Console.json(.object([
                ("projections", .array(ProjectionRegistry.all.map { .object([("name", .string($0.name)), ("version", .int(Int64($0.version)))]) })),
                ("events", .int(Int64(events))), ("seconds", .number(seconds)),
                ("rules", .object([("id", .string(target.id)), ("version", .int(Int64(target.version)))])),
                ("diff", .array(changes.map { Self.json($0, log) })),
            ]))
            return
        }
        Console.out("Rebuilt \(ProjectionRegistry.all.count) projections from \(events) events in \(String(format: "%.3f", seconds)) s under rules \(target.id) v\(target.version): \(records.count) exercises with records, \(volume.count) weeks of volume.")
        guard diff else { return }
        guard !changes.isEmpty else { Console.out("No differences against \(current.id) v\(current.version)."); return }
        Console.out("")
        RebuildDiffText.lines(changes, log: log, against: "\(current.id) v\(current.version)").forEach(Console.out)
    }

    static func json(_ c: RuleSetDiff.Change, _ log: TrainingLogProjection) -> JSONValue {
        switch c {
        case .recordGained(let r), .recordLost(let r):
            let change = { if case .recordGained = c { return "recordGained" } else { return "recordLost" } }()
            let head: [(String, JSONValue)] = [("change", .string(change)), ("exercise", .string(log.exerciseName(r.exerciseId))),
                                               ("exerciseId", .string(r.exerciseId))]
            return .object(head + RecordsQuery.recordPairs(r))
        case .e1rmMoved(let id, let w, let from, let to):
            return .object([("change", .string("e1rmMoved")), ("exercise", .string(log.exerciseName(id))), ("exerciseId", .string(id)),
                            ("workoutId", .string(w.lowercased)), ("fromKg", .optional(from)), ("toKg", .optional(to)),
                            ("deltaKg", from.flatMap { f in to.map { $0 - f } }.map(JSONValue.number) ?? .null)])
        case .volumeChanged(let week, let fs, let ts, let fk, let tk):
            return .object([("change", .string("volumeChanged")), ("week", .string(week)), ("fromSets", .int(Int64(fs))),
                            ("toSets", .int(Int64(ts))), ("fromKg", .number(fk)), ("toKg", .number(tk)), ("deltaKg", .number(tk - fk))])
        case .nextTargetChanged(let id, let from, let to):
            return .object([("change", .string("nextTargetChanged")), ("exercise", .string(log.exerciseName(id))), ("exerciseId", .string(id)),
                            ("fromKg", .optional(from.weightKg)), ("toKg", .optional(to.weightKg)),
                            ("fromReps", .string("\(from.repsMin)-\(from.repsMax)")), ("toReps", .string("\(to.repsMin)-\(to.repsMax)")),
                            ("fromRule", .string(from.rule.rawValue)), ("toRule", .string(to.rule.rawValue)), ("reason", .string(to.reason))])
        }
    }
}

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
    @Option(
        help: "The App Store's signed transaction (StoreKit 2 JWS), or @FILE holding it: a server counts a Coach product only with one that verifies."
    )
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
            let recorded = try session.recordPurchase(
                product: p, transactionId: transaction, originalTransactionId: original,
                purchasedAt: bought, expiresAt: until)
            let attached = try jws.map { try session.attachReceipt(transactionId: transaction, signedTransaction: $0) } ?? false
            return (recorded, attached)
        }
        if global.json {
            Console.json(.object([("recorded", .bool(recorded)), ("receiptAttached", .bool(attached))]))
        } else if recorded || attached {
            Console.out(
                (recorded ? "Recorded \(p.rawValue) until \(until.iso8601)" : "Transaction \(transaction) was recorded already")
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
        if let until = s.operatorGrantUntil { Console.out("  Coach granted by the server's operator, until \(until.iso8601)") }
        Console.out("  templates: \(s.liveTemplates) of \(s.templateLimit.map(String.init) ?? "unlimited")")
        if s.softUpsell { Console.out("  With \(counted(s.completedWorkouts, "workout")) completed on Free, the app may now suggest Pro.") }
    }
}

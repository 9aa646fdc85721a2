import Foundation
import LedgerTestSupport
import StoreKitTestSupport
import Testing

/// A Coach product opens another account's data on the server only through
/// a signed transaction that verifies against the server's store root: a
/// purchase event alone, which any device can write, opens nothing.
@Suite(.serialized) struct PurchaseVerificationTests {
    /// A lifter who granted the coach access, and the coach's device.
    static func setUp(
        _ server: ServerProcess, _ cli: LedgerProcess
    ) throws -> (lifter: ServerProcess.Account, coach: ServerProcess.Account, carl: Device) {
        let lifter = try server.createAccount("lina")
        let coach = try server.createAccount("coach carl", coach: true)
        let phone = try Device("lina", cli: cli, token: lifter.token)
        #expect(try phone.run(["coach", "grant", coach.id]).status == 0)
        #expect(try phone.sync(server, account: lifter.id).status == 0)
        let carl = try Device("carl", cli: cli, token: coach.token)
        #expect(try carl.sync(server, account: coach.id).status == 0)
        return (lifter, coach, carl)
    }

    /// Records a Coach purchase on the coach's device, with the signed transaction if given, and syncs.
    static func buy(_ carl: Device, id: String, product: String = "repledger_coach_monthly", signed: String?) throws {
        let out = try carl.run(
            [
                "purchase", product, "--transaction", id, "--purchased", "2026-01-01T00:00:00Z",
                "--expires", "2099-01-01T00:00:00Z",
            ] + (signed.map { ["--signed-transaction", $0] } ?? []))
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try carl.sync().status == 0)
    }

    /// A purchase and its signed transaction in one push, by hand: the refusals a device's sync would not show.
    static func pushPurchase(
        _ server: ServerProcess, _ account: ServerProcess.Account, id: String, jws: String,
        product: String = "repledger_coach_monthly"
    ) async throws -> ServerProcess.Reply {
        let recorded = PushBodies.event(
            "PurchaseRecorded", stream: "account",
            payload:
                #"{"transactionId":"\#(id)","originalTransactionId":"\#(id)","product":"\#(product)","purchasedAt":"2026-01-01T00:00:00Z","expiresAt":"2099-01-01T00:00:00Z"}"#
        )
        let receipt = PushBodies.event(
            "PurchaseReceiptAttached", stream: "account", payload: #"{"transactionId":"\#(id)","signedTransaction":"\#(jws)"}"#)
        return try await server.post("/v1/accounts/\(account.id)/events", token: account.token, body: PushBodies.batch([recorded, receipt]))
    }

    /// The account's head position (what was appended).
    static func head(_ server: ServerProcess, _ account: ServerProcess.Account) async throws -> Int {
        let reply = try await server.get("/v1/accounts/\(account.id)/verify", token: account.token)
        return (reply.json?["events"] as? Int) ?? -1
    }

    @Test func onlyAVerifiedSignedTransactionOpensAClientsLog() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let chain = try StoreKitTestChain()
        let root = try chain.writeRoot(in: cli.folder)
        let server = try ServerProcess(cli: cli, serveFlags: ["--storekit-root", root, "--bundle-id", StoreKitTestChain.bundleId])
        let (lifter, coach, carl) = try Self.setUp(server, cli)
        let prs = "/v1/accounts/\(lifter.id)/prs"
        func reads() async throws -> Int { try await server.get(prs, token: coach.token).status }
        func roster() async throws -> Int { try await server.get("/v1/coach/clients", token: coach.token).status }

        // A purchase a device wrote, with no receipt: the device counts it, the server does not.
        try Self.buy(carl, id: "plain", signed: nil)
        #expect(try carl.run(["entitlements", "--json"]).json?["isCoach"] as? Bool == true)
        #expect(try await reads() == 403)
        #expect(try await roster() == 403)

        // Signed transactions that prove nothing are refused when pushed (422), and nothing of the push is kept.
        let other = try StoreKitTestChain(name: "Another Root")
        let unverifiable: [(String, String)] = [
            ("other-root", try other.signedTransaction(id: "other-root", product: "repledger_coach_monthly")),
            ("other-app", try chain.signedTransaction(id: "other-app", product: "repledger_coach_monthly", bundleId: "com.someone.else")),
            ("forged", try chain.signedTransaction(id: "forged", product: "repledger_pro_monthly") { $0["productId"] = "repledger_coach_monthly" }),
            ("mismatch", try chain.signedTransaction(id: "someone-elses-transaction", product: "repledger_coach_monthly")),
            ("huge", String(repeating: "a", count: 20_000) + ".b.c"),
        ]
        let before = try await Self.head(server, coach)
        for (id, jws) in unverifiable {
            let reply = try await Self.pushPurchase(server, coach, id: id, jws: jws)
            #expect(reply.status == 422 && reply.errorCode == "receiptRefused", "\(id): \(reply.status) \(reply.body.prefix(200))")
        }
        #expect(try await Self.head(server, coach) == before, "a refused push appended events")
        #expect(try await reads() == 403)

        // Verified, but no Coach product now: kept (a device restores its history), opening nothing.
        let inactive: [(String, String)] = [
            (
                "expired",
                try chain.signedTransaction(
                    id: "expired", product: "repledger_coach_monthly",
                    purchased: Date() - 60 * 86_400, expires: Date() - 30 * 86_400)
            ),
            ("revoked", try chain.signedTransaction(id: "revoked", product: "repledger_coach_monthly", revoked: Date() - 60)),
            ("pro-only", try chain.signedTransaction(id: "pro-only", product: "repledger_pro_monthly")),
        ]
        for (id, jws) in inactive {
            #expect(try await Self.pushPurchase(server, coach, id: id, jws: jws).status == 200, "\(id)")
            #expect(try await reads() == 403, "\(id) opened the client's log")
        }
        let refused = try await server.get(prs, token: coach.token)
        #expect(refused.body.contains("--storekit-root"))

        // A transaction the store signed, for this app, active now: the client's log opens, and the roster.
        #expect(try carl.sync().status == 0)
        try Self.buy(carl, id: "good", signed: try chain.signedTransaction(id: "good", product: "repledger_coach_monthly"))
        #expect(try await reads() == 200)
        #expect(try await roster() == 200)
        // Its signed transaction again, for the same transaction, is refused: one per transaction.
        let again = try await server.post(
            "/v1/accounts/\(coach.id)/events", token: coach.token,
            body: PushBodies.batch([
                PushBodies.event(
                    "PurchaseReceiptAttached", stream: "account",
                    payload:
                        #"{"transactionId":"good","signedTransaction":"\#(try chain.signedTransaction(id: "good", product: "repledger_coach_monthly"))"}"#
                )
            ]))
        #expect(again.status == 422 && again.errorCode == "receiptRefused", "\(again.body.prefix(200))")

        // A refund recorded in the coach's log ends it, whatever the receipt says.
        #expect(try carl.run(["refund", "good", "--at", ISO8601DateFormatter().string(from: Date() - 1)]).status == 0)
        #expect(try carl.sync().status == 0)
        #expect(try await reads() == 403)
    }

    @Test func onePurchaseHoldsOneAccount() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let chain = try StoreKitTestChain()
        let root = try chain.writeRoot(in: cli.folder)
        let server = try ServerProcess(cli: cli, serveFlags: ["--storekit-root", root, "--bundle-id", StoreKitTestChain.bundleId])
        let (lifter, coachA, _) = try Self.setUp(server, cli)
        let coachB = try server.createAccount("coach bea", coach: true)
        let phone = try Device("lina2", cli: cli, token: lifter.token)
        #expect(try phone.sync(server, account: lifter.id).status == 0)
        #expect(try phone.run(["coach", "grant", coachB.id]).status == 0)
        #expect(try phone.sync().status == 0)
        let jws = try chain.signedTransaction(id: "2000001", product: "repledger_coach_monthly")
        #expect(try await Self.pushPurchase(server, coachA, id: "2000001", jws: jws).status == 200)
        #expect(try await server.get("/v1/accounts/\(lifter.id)/prs", token: coachA.token).status == 200)
        // Coach B records A's purchase and its signed transaction: refused, and B reads nothing.
        let copied = try await Self.pushPurchase(server, coachB, id: "2000001", jws: jws)
        #expect(copied.status == 409 && copied.errorCode == "purchaseClaimed", "\(copied.status) \(copied.body.prefix(200))")
        // A renewal of that purchase (same original transaction) is A's too.
        let renewal = try chain.signedTransaction(id: "2000002", product: "repledger_coach_monthly", original: "2000001")
        #expect(try await Self.pushPurchase(server, coachB, id: "2000002", jws: renewal).status == 409)
        #expect(try await server.get("/v1/accounts/\(lifter.id)/prs", token: coachB.token).status == 403)
        // A purchase the app bought for another account (its appAccountToken) opens nothing here.
        let forA = try chain.signedTransaction(id: "2000003", product: "repledger_coach_monthly", appAccountToken: coachA.id.uppercased())
        let named = try await Self.pushPurchase(server, coachB, id: "2000003", jws: forA)
        #expect(named.status == 422 && named.errorCode == "receiptRefused", "\(named.body.prefix(200))")
        // Bought for B: B's.
        let forB = try chain.signedTransaction(id: "2000004", product: "repledger_coach_monthly", appAccountToken: coachB.id.uppercased())
        #expect(try await Self.pushPurchase(server, coachB, id: "2000004", jws: forB).status == 200)
        #expect(try await server.get("/v1/accounts/\(lifter.id)/prs", token: coachB.token).status == 200)
    }

    @Test func anAccountKeepsAtMostAThousandSignedTransactions() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let chain = try StoreKitTestChain()
        let server = try ServerProcess(
            cli: cli, serveFlags: ["--storekit-root", try chain.writeRoot(in: cli.folder), "--bundle-id", StoreKitTestChain.bundleId])
        let coach = try server.createAccount("coach", coach: true)
        // Purchases of the past, each with its signed transaction, 500 a push (a push holds 4 MiB).
        func push(_ ids: Range<Int>) async throws -> ServerProcess.Reply {
            var events: [String] = []
            for n in ids {
                let id = "\(3_000_000 + n)"
                let jws = try chain.signedTransaction(
                    id: id, product: "repledger_pro_monthly", purchased: Date() - 90 * 86_400, expires: Date() - 60 * 86_400)
                events.append(
                    PushBodies.event(
                        "PurchaseRecorded", stream: "account",
                        payload:
                            #"{"transactionId":"\#(id)","originalTransactionId":"\#(id)","product":"repledger_pro_monthly","purchasedAt":"2026-01-01T00:00:00Z","expiresAt":"2026-02-01T00:00:00Z"}"#
                    ))
                events.append(
                    PushBodies.event(
                        "PurchaseReceiptAttached", stream: "account", payload: #"{"transactionId":"\#(id)","signedTransaction":"\#(jws)"}"#))
            }
            return try await server.post("/v1/accounts/\(coach.id)/events", token: coach.token, body: PushBodies.batch(events))
        }
        #expect(try await push(0..<500).status == 200)
        #expect(try await push(500..<1000).status == 200)
        let over = try await push(1000..<1001)
        #expect(over.status == 422 && over.errorCode == "receiptRefused" && over.body.contains("1000"), "\(over.status) \(over.body.prefix(200))")
    }

    @Test func receiptsAreCheckedAsApplesVerifierChecksThem() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let marked = try StoreKitTestChain()
        let unmarked = try StoreKitTestChain(name: "Unmarked Root", markers: false)
        let production = try ServerProcess(
            cli: cli, serveFlags: ["--storekit-root", try marked.writeRoot(in: cli.folder), "--bundle-id", StoreKitTestChain.bundleId])
        let coach = try production.createAccount("coach", coach: true)
        let refusals: [(String, String)] = [
            ("sandbox", try marked.signedTransaction(id: "t1", product: "repledger_coach_monthly", environment: "Sandbox")),
            ("xcode", try marked.signedTransaction(id: "t2", product: "repledger_coach_monthly", environment: "Xcode")),
            ("no environment", try marked.signedTransaction(id: "t3", product: "repledger_coach_monthly", environment: nil)),
            ("two certificates", try marked.signedTransaction(id: "t4", product: "repledger_coach_monthly", withoutRoot: true)),
        ]
        for (i, (why, jws)) in refusals.enumerated() {
            let reply = try await Self.pushPurchase(production, coach, id: "t\(i + 1)", jws: jws)
            #expect(reply.status == 422 && reply.errorCode == "receiptRefused", "\(why): \(reply.status) \(reply.body.prefix(200))")
        }
        #expect(
            try await Self.pushPurchase(production, coach, id: "t5", jws: try marked.signedTransaction(id: "t5", product: "repledger_coach_monthly"))
                .status == 200)

        // A chain whose root the server trusts but whose leaf and intermediate lack the store's markers.
        let unmarkedServer = try ServerProcess(
            cli: cli, serveFlags: ["--storekit-root", try unmarked.writeRoot(in: cli.folder), "--bundle-id", StoreKitTestChain.bundleId])
        let other = try unmarkedServer.createAccount("coach", coach: true)
        let noMarker = try await Self.pushPurchase(
            unmarkedServer, other, id: "u1", jws: try unmarked.signedTransaction(id: "u1", product: "repledger_coach_monthly"))
        #expect(noMarker.status == 422 && noMarker.body.contains("marked"), "\(noMarker.body.prefix(200))")

        // A server for TestFlight takes Sandbox, exactly, and nothing else.
        let sandbox = try ServerProcess(
            cli: cli,
            serveFlags: [
                "--storekit-root", try marked.writeRoot(in: cli.folder), "--bundle-id", StoreKitTestChain.bundleId, "--storekit-environment",
                "Sandbox",
            ])
        let tester = try sandbox.createAccount("tester", coach: true)
        #expect(
            try await Self.pushPurchase(
                sandbox, tester, id: "s1", jws: try marked.signedTransaction(id: "s1", product: "repledger_coach_monthly", environment: "Sandbox")
            ).status == 200)
        #expect(
            try await Self.pushPurchase(sandbox, tester, id: "s2", jws: try marked.signedTransaction(id: "s2", product: "repledger_coach_monthly"))
                .status == 422)
        let usage = try cli.run(["serve", "--storekit-environment", "sandbox"] + sandbox.storage, useDbFlag: false)
        #expect(usage.status == 2 && usage.stderr.contains("Production or Sandbox"), "\(usage.stderr)")
    }

    @Test func aServerThatTrustsNoStoreRootGrantsNoCoach() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let chain = try StoreKitTestChain()
        let server = try ServerProcess(cli: cli)
        let (lifter, coach, carl) = try Self.setUp(server, cli)
        try Self.buy(carl, id: "good", signed: try chain.signedTransaction(id: "good", product: "repledger_coach_monthly"))
        #expect(try await server.get("/v1/accounts/\(lifter.id)/prs", token: coach.token).status == 403)
        // A bad receipt on a device is refused at once, in one line, and nothing is appended.
        let bad = try carl.run([
            "purchase", "repledger_coach_monthly", "--transaction", "x", "--purchased", "2026-01-01T00:00:00Z",
            "--expires", "2099-01-01T00:00:00Z", "--signed-transaction", "not a jws",
        ])
        #expect(bad.status == 1 && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        // --storekit-root without --bundle-id is a usage error.
        let usage = try cli.run(["serve", "--storekit-root", try chain.writeRoot(in: cli.folder)] + server.storage, useDbFlag: false)
        #expect(usage.status == 2 && usage.stderr.contains("--bundle-id"))
    }
}

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

        // Signed, but each wrong in one way.
        let other = try StoreKitTestChain(name: "Another Root")
        let wrong: [(String, String)] = [
            ("other-root", try other.signedTransaction(id: "other-root", product: "repledger_coach_monthly")),
            ("other-app", try chain.signedTransaction(id: "other-app", product: "repledger_coach_monthly", bundleId: "com.someone.else")),
            (
                "expired",
                try chain.signedTransaction(
                    id: "expired", product: "repledger_coach_monthly",
                    purchased: Date() - 60 * 86_400, expires: Date() - 30 * 86_400)
            ),
            ("revoked", try chain.signedTransaction(id: "revoked", product: "repledger_coach_monthly", revoked: Date() - 60)),
            ("pro-only", try chain.signedTransaction(id: "pro-only", product: "repledger_pro_monthly")),
            ("forged", try chain.signedTransaction(id: "forged", product: "repledger_pro_monthly") { $0["productId"] = "repledger_coach_monthly" }),
            ("mismatch", try chain.signedTransaction(id: "someone-elses-transaction", product: "repledger_coach_monthly")),
        ]
        for (id, jws) in wrong {
            try Self.buy(carl, id: id, signed: jws)
            #expect(try await reads() == 403, "\(id) opened the client's log")
        }
        let refused = try await server.get(prs, token: coach.token)
        #expect(refused.body.contains("--storekit-root"))

        // A transaction the store signed, for this app, active now: the client's log opens, and the roster.
        try Self.buy(carl, id: "good", signed: try chain.signedTransaction(id: "good", product: "repledger_coach_monthly"))
        #expect(try await reads() == 200)
        #expect(try await roster() == 200)

        // A refund recorded in the coach's log ends it, whatever the receipt says.
        #expect(try carl.run(["refund", "good", "--at", ISO8601DateFormatter().string(from: Date() - 1)]).status == 0)
        #expect(try carl.sync().status == 0)
        #expect(try await reads() == 403)
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

import Foundation
import LedgerTestSupport
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerPostgres
import Testing

/// Where a server keeps its accounts, tokens, sign-in ways, webhooks, invites and purchases: one protocol
/// (`AccountTable`) and this one suite, run over SQLite and PostgreSQL (each test on a fresh database), so the two
/// answer alike. PostgreSQL runs whenever a throwaway cluster can be started, always in CI.
@Suite struct AccountTableConformanceTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite, postgres
        var testDescription: String { rawValue }
        static var available: [Backend] { PostgresCluster.shared == nil ? [.sqlite] : allCases }

        /// A fresh, empty table, and what removes it.
        func make() throws -> (table: any AccountTable, cleanUp: () -> Void) {
            switch self {
            case .sqlite:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("account-table-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                return (try SQLiteAccountTable(directory: folder.path), { try? FileManager.default.removeItem(at: folder) })
            case .postgres:
                let cluster = try #require(PostgresCluster.shared, "no PostgreSQL: \(PostgresCluster.unavailableReason)")
                let pool = try PostgresPool(url: try cluster.createDatabase())
                try PostgresSchema.prepare(pool)
                return (PostgresAccountTable(pool: pool), { pool.shutdown() })
            }
        }
    }

    static func account(_ t: any AccountTable, _ name: String, coach: Bool = false, at: Int64) throws -> AccountDirectory.Account {
        let a = AccountDirectory.Account(accountId: UUID().uuidString.lowercased(), name: name, isCoach: coach)
        try t.insertAccount(a, createdAt: at)
        return a
    }

    static func hash(_ text: String) -> [UInt8] { AccountDirectory.hash(text) }

    @Test("accounts: found by id, listed oldest first, renamed, an unused one removed", arguments: Backend.available)
    func accounts(_ backend: Backend) throws {
        let (t, cleanUp) = try backend.make()
        defer { cleanUp() }
        let ada = try Self.account(t, "Ada", at: 1), bo = try Self.account(t, "Bo", coach: true, at: 2)
        #expect(try t.account(ada.accountId) == ada && t.account(UUID().uuidString.lowercased()) == nil)
        #expect(try t.accounts().map(\.accountId) == [ada.accountId, bo.accountId])
        #expect(try t.account(bo.accountId)?.isCoach == true)
        try t.replaceName(ada.accountId, with: "Ada L.")
        #expect(try t.account(ada.accountId)?.name == "Ada L.")
        try t.removeAccount(bo.accountId)
        #expect(try t.account(bo.accountId) == nil && t.accounts().map(\.accountId) == [ada.accountId])
    }

    @Test("tokens: kept by hash, found with their account, listed revoked too, revoked once, found again by a prefix", arguments: Backend.available)
    func tokens(_ backend: Backend) throws {
        let (t, cleanUp) = try backend.make()
        defer { cleanUp() }
        let ada = try Self.account(t, "Ada", at: 1)
        let phone = StoredToken(
            hash: Self.hash("phone"), accountId: ada.accountId, device: "phone", name: nil, scope: .full, createdAt: 10, expiresAt: nil)
        let watch = StoredToken(
            hash: Self.hash("watch"), accountId: ada.accountId, device: "watch", name: "w", scope: .read, createdAt: 20, expiresAt: 99)
        try t.insertToken(phone)
        try t.insertToken(watch)
        let found = try #require(try t.token(hash: phone.hash))
        #expect(found.token == phone && found.account.accountId == ada.accountId)
        #expect(try t.token(hash: Self.hash("nobody")) == nil)
        #expect(try t.revokeToken(hash: phone.hash, at: 30) && !t.revokeToken(hash: phone.hash, at: 31))
        #expect(try t.token(hash: phone.hash) == nil)
        let listed = try t.tokens(of: ada.accountId)
        #expect(listed.map(\.device) == ["phone", "watch"] && listed[0].revokedAt == 30 && listed[1].scope == .read && listed[1].expiresAt == 99)
        #expect(try t.tokenHashes(withPrefix: Array(watch.hash.prefix(StoredToken.idBytes))) == [watch.hash])
    }

    @Test(
        "sign-in: the first link of an identity wins, a code is replaced, counted and used once, a proof is claimed once",
        arguments: Backend.available)
    func signIn(_ backend: Backend) throws {
        let (t, cleanUp) = try backend.make()
        defer { cleanUp() }
        let ada = try Self.account(t, "Ada", at: 1), other = try Self.account(t, "Other", at: 2)
        let subject = Self.hash("apple:ada")
        #expect(try t.identityAccount(provider: "apple", subject: subject) == nil)
        #expect(try t.claimIdentity(provider: "apple", subject: subject, account: ada.accountId, at: 5) == ada.accountId)
        #expect(try t.claimIdentity(provider: "apple", subject: subject, account: other.accountId, at: 6) == ada.accountId)
        #expect(try t.identityAccount(provider: "apple", subject: subject) == ada.accountId)
        #expect(try t.identityAccount(provider: "email", subject: subject) == nil)

        let key = Self.hash("email:ada@example.org")
        try t.replaceCode(SignInCode(email: key, codeHash: Self.hash("111111"), expiresAt: 100))
        try t.replaceCode(SignInCode(email: key, codeHash: Self.hash("222222"), expiresAt: 200))
        try t.countWrongCode(email: key)
        #expect(try t.code(email: key) == SignInCode(email: key, codeHash: Self.hash("222222"), expiresAt: 200, attempts: 1))
        #expect(try !t.consumeCode(email: key, codeHash: Self.hash("111111")))
        #expect(try t.consumeCode(email: key, codeHash: Self.hash("222222")) && !t.consumeCode(email: key, codeHash: Self.hash("222222")))
        #expect(try t.code(email: key) == nil)

        let proof = Self.hash("token")
        #expect(try t.claimOnce(proof, expiresAt: 50, now: 10) && !t.claimOnce(proof, expiresAt: 50, now: 20))
        // Past its expiry a proof is forgotten (it is refused as expired before it gets here).
        #expect(try t.claimOnce(proof, expiresAt: 150, now: 100))
        #expect(try !t.wasErased(tokenHash: Self.hash("phone")))
    }

    @Test("webhooks: listed live, advanced, removed once; their attempts newest first", arguments: Backend.available)
    func webhooks(_ backend: Backend) throws {
        let (t, cleanUp) = try backend.make()
        defer { cleanUp() }
        let ada = try Self.account(t, "Ada", at: 1), bo = try Self.account(t, "Bo", at: 2)
        func hook(_ account: String, at: Int64) -> StoredWebhook {
            StoredWebhook(
                hookId: UUID().uuidString.lowercased(), accountId: account, url: "https://example.org/h", events: ["SetLogged"], secret: "sealed",
                createdAt: at, cursor: 0)
        }
        let first = hook(ada.accountId, at: 10), second = hook(ada.accountId, at: 20), bos = hook(bo.accountId, at: 30)
        for h in [first, second, bos] { try t.insertWebhook(h) }
        #expect(try t.webhooks(of: ada.accountId).map(\.hookId) == [first.hookId, second.hookId])
        #expect(try t.webhooks(of: nil).map(\.hookId) == [first.hookId, second.hookId, bos.hookId])
        try t.advanceWebhook(first.hookId, to: 42)
        #expect(try t.webhook(first.hookId)?.cursor == 42)
        #expect(try t.removeWebhook(second.hookId, at: 50) && !t.removeWebhook(second.hookId, at: 51))
        #expect(try t.webhooks(of: ada.accountId).map(\.hookId) == [first.hookId])
        for (i, status) in [500, 200].enumerated() {
            try t.insertAttempt(
                WebhookAttempt(
                    hookId: first.hookId, deliveryId: "d", position: 1, type: "SetLogged", attempt: i + 1, status: status,
                    error: status == 200 ? nil : "HTTP 500", at: Int64(60 + i)))
        }
        #expect(try t.attempts(of: first.hookId, limit: 10).map(\.status) == [200, 500])
        #expect(try t.attempts(of: first.hookId, limit: 1).map(\.attempt) == [2])
    }

    @Test("coaching: the client index, invites used once or withdrawn, a purchase held by one account", arguments: Backend.available)
    func coaching(_ backend: Backend) throws {
        let (t, cleanUp) = try backend.make()
        defer { cleanUp() }
        let coach = try Self.account(t, "Coach", coach: true, at: 1)
        let ada = try Self.account(t, "Ada", at: 2), bo = try Self.account(t, "Bo", at: 3)
        #expect(try !t.coachClientsIndexed())
        try t.indexCoachClients(client: bo.accountId, coaches: [coach.accountId])
        try t.indexCoachClients(client: ada.accountId, coaches: [coach.accountId])
        try t.indexCoachClients(client: ada.accountId, coaches: [coach.accountId])
        try t.markCoachClientsIndexed()
        #expect(try t.coachClientsIndexed())
        #expect(try t.indexedClients(of: coach.accountId).map(\.accountId) == [ada.accountId, bo.accountId])

        func invite(_ code: String, at: Int64) -> CoachInvite {
            CoachInvite(
                inviteId: UUID().uuidString.lowercased(), coachId: coach.accountId, codeHash: Self.hash(code), note: "n", createdAt: at,
                expiresAt: at + 1000)
        }
        let older = invite("A", at: 10), newer = invite("B", at: 20)
        try t.insertInvite(older)
        try t.insertInvite(newer)
        #expect(try t.invites(of: coach.accountId).map(\.inviteId) == [newer.inviteId, older.inviteId])
        #expect(try t.invite(codeHash: Self.hash("A"))?.inviteId == older.inviteId)
        #expect(try t.useInvite(older.inviteId, client: ada.accountId, at: 30) && !t.useInvite(older.inviteId, client: bo.accountId, at: 31))
        #expect(try t.invite(codeHash: Self.hash("A"))?.usedBy == ada.accountId)
        #expect(try !t.revokeInvite(older.inviteId, coach: coach.accountId, at: 40))
        #expect(try t.revokeInvite(newer.inviteId, coach: coach.accountId, at: 40) && !t.useInvite(newer.inviteId, client: bo.accountId, at: 41))
        // Past its expiry an invite is not used.
        let late = invite("C", at: 100)
        try t.insertInvite(late)
        #expect(try !t.useInvite(late.inviteId, client: bo.accountId, at: 2000))

        #expect(try t.claimPurchase("tx-1", account: ada.accountId, at: 50) == ada.accountId)
        #expect(try t.claimPurchase("tx-1", account: bo.accountId, at: 51) == ada.accountId)
    }
}

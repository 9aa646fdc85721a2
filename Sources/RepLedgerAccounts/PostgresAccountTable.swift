import Foundation
import NIOCore
import PostgresNIO
import RepLedgerCore
import RepLedgerPostgres

/// Accounts and token hashes in PostgreSQL (tables `accounts` and `tokens`).
package final class PostgresAccountTable: AccountTable {
    package typealias Account = AccountDirectory.Account
    package let pool: PostgresPool

    package init(pool: PostgresPool) { self.pool = pool }

    private func uuid(_ id: String) throws -> UUID {
        guard let u = UUID(uuidString: id) else { throw AccountDirectory.Failure.unknownAccount(id) }
        return u
    }

    package func insertAccount(_ account: Account, createdAt: Int64) throws {
        let id = try uuid(account.accountId)
        _ = try pool.withConnection { c in
            try pool.run(
                c, "INSERT INTO accounts (account_id, name, coach, created_at) VALUES (\(id), \(account.name), \(account.isCoach), \(createdAt))")
        }
    }

    package func replaceName(_ id: String, with name: String) throws {
        let u = try uuid(id)
        _ = try pool.withConnection { c in try pool.run(c, "UPDATE accounts SET name = \(name) WHERE account_id = \(u)") }
    }

    package func account(_ id: String) throws -> Account? {
        let u = try uuid(id)
        return try pool.withConnection { c in
            try pool.run(c, "SELECT name, coach FROM accounts WHERE account_id = \(u) AND erased_at IS NULL").rows.first.map { row in
                let (name, coach) = try row.decode((String, Bool).self)
                return Account(accountId: u.uuidString.lowercased(), name: name, isCoach: coach)
            }
        }
    }

    package func accounts() throws -> [Account] {
        try pool.withConnection { c in
            try pool.run(c, "SELECT account_id, name, coach FROM accounts WHERE erased_at IS NULL ORDER BY created_at, account_id").rows.map { row in
                let (id, name, coach) = try row.decode((UUID, String, Bool).self)
                return Account(accountId: id.uuidString.lowercased(), name: name, isCoach: coach)
            }
        }
    }

    package func insertToken(_ token: StoredToken) throws {
        let id = try uuid(token.accountId)
        _ = try pool.withConnection { c in
            try pool.run(
                c,
                """
                INSERT INTO tokens (account_id, token_hash, device, created_at, scope, name, expires_at)
                VALUES (\(id), \(ByteBuffer(bytes: token.hash)), \(token.device), \(token.createdAt), \(token.scope.rawValue), \(token.name), \(token.expiresAt))
                """)
        }
    }

    package func revokeToken(hash: [UInt8], at time: Int64) throws -> Bool {
        try pool.withConnection { c in
            let result = try pool.run(
                c,
                """
                UPDATE tokens SET revoked_at = \(time) WHERE token_hash = \(ByteBuffer(bytes: hash)) AND revoked_at IS NULL
                """)
            return (result.metadata.rows ?? 0) == 1
        }
    }

    package func token(hash: [UInt8]) throws -> (token: StoredToken, account: Account)? {
        try pool.withConnection { c in
            try pool.run(
                c,
                """
                SELECT t.token_hash, t.account_id, t.device, t.name, t.scope, t.created_at, t.expires_at, t.revoked_at, a.name, a.coach
                FROM tokens t JOIN accounts a ON a.account_id = t.account_id
                WHERE t.token_hash = \(ByteBuffer(bytes: hash)) AND t.revoked_at IS NULL AND a.erased_at IS NULL
                """
            ).rows.first.map { row in
                let (hash, id, device, name, scope, createdAt, expiresAt, revokedAt, accountName, coach) = try row.decode(
                    (ByteBuffer, UUID, String, String?, String, Int64, Int64?, Int64?, String, Bool).self)
                let token = Self.storedToken(hash, id, device, name, scope, createdAt, expiresAt, revokedAt)
                return (token, Account(accountId: token.accountId, name: accountName, isCoach: coach))
            }
        }
    }

    package func tokens(of account: String) throws -> [StoredToken] {
        let u = try uuid(account)
        return try pool.withConnection { c in
            try pool.run(
                c,
                """
                SELECT token_hash, account_id, device, name, scope, created_at, expires_at, revoked_at FROM tokens
                WHERE account_id = \(u) ORDER BY created_at, token_hash
                """
            ).rows.map { row in
                let (hash, id, device, name, scope, createdAt, expiresAt, revokedAt) = try row.decode(
                    (ByteBuffer, UUID, String, String?, String, Int64, Int64?, Int64?).self)
                return Self.storedToken(hash, id, device, name, scope, createdAt, expiresAt, revokedAt)
            }
        }
    }

    package func tokenHashes(withPrefix prefix: [UInt8]) throws -> [[UInt8]] {
        try pool.withConnection { c in
            try pool.run(
                c,
                """
                SELECT token_hash FROM tokens WHERE substring(token_hash FROM 1 FOR \(Int32(prefix.count))) = \(ByteBuffer(bytes: prefix))
                """
            ).rows.map { row in Array(try row.decode(ByteBuffer.self).readableBytesView) }
        }
    }

    private static func storedToken(
        _ hash: ByteBuffer, _ id: UUID, _ device: String, _ name: String?, _ scope: String, _ createdAt: Int64, _ expiresAt: Int64?,
        _ revokedAt: Int64?
    ) -> StoredToken {
        StoredToken(
            hash: Array(hash.readableBytesView), accountId: id.uuidString.lowercased(), device: device, name: name,
            scope: TokenScope(rawValue: scope) ?? .read, createdAt: createdAt, expiresAt: expiresAt, revokedAt: revokedAt)
    }

    package func indexCoachClients(client: String, coaches: Set<String>) throws {
        let clientId = try uuid(client)
        let coachIds = try coaches.sorted().map(uuid)
        guard !coachIds.isEmpty else { return }
        _ = try pool.withConnection { c in
            try pool.run(
                c,
                """
                INSERT INTO coach_clients (coach_id, client_id) SELECT unnest(\(coachIds)::uuid[]), \(clientId) ON CONFLICT DO NOTHING
                """)
        }
    }

    package func indexedClients(of coach: String) throws -> [Account] {
        let id = try uuid(coach)
        return try pool.withConnection { c in
            try pool.run(
                c,
                """
                SELECT a.account_id, a.name, a.coach FROM coach_clients g JOIN accounts a ON a.account_id = g.client_id
                WHERE g.coach_id = \(id) AND a.erased_at IS NULL ORDER BY a.created_at, a.account_id
                """
            ).rows.map { row in
                let (id, name, coach) = try row.decode((UUID, String, Bool).self)
                return Account(accountId: id.uuidString.lowercased(), name: name, isCoach: coach)
            }
        }
    }

    package func coachClientsIndexed() throws -> Bool {
        try pool.withConnection { c in !(try pool.run(c, "SELECT 1 FROM backfills WHERE name = 'coach_clients'").rows.isEmpty) }
    }

    package func markCoachClientsIndexed() throws {
        let now = Timestamp.now().millis
        _ = try pool.withConnection { c in
            try pool.run(c, "INSERT INTO backfills (name, done_at) VALUES ('coach_clients', \(now)) ON CONFLICT DO NOTHING")
        }
    }

    package func removeAccount(_ id: String) throws {
        let u = try uuid(id)
        _ = try pool.transaction { c in try pool.run(c, "SELECT events FROM repledger_erase_account(\(u))") }
    }

    // MARK: Invites

    static let inviteColumns = "invite_id, coach_id, code_hash, note, created_at, expires_at, used_at, used_by, revoked_at"

    private static func invite(_ row: PostgresRow) throws -> CoachInvite {
        let (id, coach, hash, note, created, expires, usedAt, usedBy, revokedAt) = try row.decode(
            (UUID, UUID, ByteBuffer, String, Int64, Int64, Int64?, UUID?, Int64?).self)
        return CoachInvite(
            inviteId: id.uuidString.lowercased(), coachId: coach.uuidString.lowercased(), codeHash: Array(hash.readableBytesView), note: note,
            createdAt: created, expiresAt: expires, usedAt: usedAt, usedBy: usedBy?.uuidString.lowercased(), revokedAt: revokedAt)
    }

    package func insertInvite(_ i: CoachInvite) throws {
        let id = try uuid(i.inviteId), coach = try uuid(i.coachId)
        _ = try pool.withConnection { c in
            try pool.run(
                c,
                """
                INSERT INTO coach_invites (invite_id, coach_id, code_hash, note, created_at, expires_at)
                VALUES (\(id), \(coach), \(ByteBuffer(bytes: i.codeHash)), \(i.note), \(i.createdAt), \(i.expiresAt))
                """)
        }
    }

    package func invites(of coach: String) throws -> [CoachInvite] {
        let id = try uuid(coach)
        return try pool.withConnection { c in
            try pool.run(
                c,
                "SELECT invite_id, coach_id, code_hash, note, created_at, expires_at, used_at, used_by, revoked_at FROM coach_invites WHERE coach_id = \(id) ORDER BY created_at DESC, invite_id"
            ).rows.map(Self.invite)
        }
    }

    package func invite(codeHash: [UInt8]) throws -> CoachInvite? {
        try pool.withConnection { c in
            try pool.run(
                c,
                "SELECT invite_id, coach_id, code_hash, note, created_at, expires_at, used_at, used_by, revoked_at FROM coach_invites WHERE code_hash = \(ByteBuffer(bytes: codeHash))"
            ).rows.first.map(Self.invite)
        }
    }

    package func revokeInvite(_ id: String, coach: String, at: Int64) throws -> Bool {
        guard let invite = UUID(uuidString: id) else { return false }
        let coachId = try uuid(coach)
        return try pool.withConnection { c in
            let result = try pool.run(
                c,
                """
                UPDATE coach_invites SET revoked_at = \(at)
                WHERE invite_id = \(invite) AND coach_id = \(coachId) AND used_at IS NULL AND revoked_at IS NULL
                """)
            return (result.metadata.rows ?? 0) == 1
        }
    }

    package func useInvite(_ id: String, client: String, at: Int64) throws -> Bool {
        let invite = try uuid(id), clientId = try uuid(client)
        return try pool.withConnection { c in
            let result = try pool.run(
                c,
                """
                UPDATE coach_invites SET used_at = \(at), used_by = \(clientId)
                WHERE invite_id = \(invite) AND used_at IS NULL AND revoked_at IS NULL AND expires_at > \(at)
                """)
            return (result.metadata.rows ?? 0) == 1
        }
    }

    package func claimPurchase(_ originalTransactionId: String, account: String, at: Int64) throws -> String {
        let accountId = try uuid(account)
        return try pool.withConnection { c in
            try pool.run(
                c,
                """
                INSERT INTO purchase_claims VALUES (\(originalTransactionId), \(accountId), \(at)) ON CONFLICT DO NOTHING
                """)
            let owner = try pool.run(c, "SELECT account_id FROM purchase_claims WHERE original_transaction_id = \(originalTransactionId)")
                .rows.first.map { try $0.decode(UUID.self) }
            return owner?.uuidString.lowercased() ?? account
        }
    }
}

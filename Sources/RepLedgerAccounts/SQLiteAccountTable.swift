import Foundation
import RepLedgerCore
import RepLedgerSQLite

/// Accounts and token hashes in `DIR/accounts.sqlite`, beside the accounts' ledgers.
public final class SQLiteAccountTable: AccountTable, @unchecked Sendable {
    public typealias Account = AccountDirectory.Account
    package let db: SQLiteDatabase
    private let lock = NSLock()

    package static let migrations = [
        """
        CREATE TABLE accounts (
            account_id TEXT PRIMARY KEY,
            name       TEXT NOT NULL,
            coach      INTEGER NOT NULL,
            created_at INTEGER NOT NULL
        ) STRICT;
        CREATE TABLE tokens (
            token_hash BLOB PRIMARY KEY,
            account_id TEXT NOT NULL REFERENCES accounts (account_id),
            device     TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            revoked_at INTEGER
        ) STRICT;
        """,
        // 2: erased accounts keep their id (never reused, answering 403 like
        // an unknown one) and nothing else: name and tokens are deleted.
        """
        ALTER TABLE accounts ADD COLUMN erased_at INTEGER;
        """,
        // 3: which clients' logs granted a coach access (`CoachClientIndex`),
        // and whether the logs written before it have been indexed.
        """
        CREATE TABLE coach_clients (
            coach_id  TEXT NOT NULL,
            client_id TEXT NOT NULL,
            PRIMARY KEY (coach_id, client_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX coach_clients_by_client ON coach_clients (client_id);
        CREATE TABLE backfills (name TEXT PRIMARY KEY, done_at INTEGER NOT NULL) STRICT;
        """,
        // 4: coaches' one-time invites, their codes stored only as hashes.
        """
        CREATE TABLE coach_invites (
            invite_id  TEXT PRIMARY KEY,
            coach_id   TEXT NOT NULL,
            code_hash  BLOB NOT NULL UNIQUE,
            note       TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            used_at    INTEGER,
            used_by    TEXT,
            revoked_at INTEGER
        ) STRICT;
        CREATE INDEX coach_invites_by_coach ON coach_invites (coach_id);
        """,
        // 5: which account holds each store purchase (the first to prove it); an erased account's are released.
        """
        CREATE TABLE purchase_claims (
            original_transaction_id TEXT PRIMARY KEY,
            account_id              TEXT NOT NULL,
            claimed_at              INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX purchase_claims_by_account ON purchase_claims (account_id);
        """,
        // 6: what a token may do (`TokenScope`; every older token is `full`), its sealed name and when it ends.
        """
        ALTER TABLE tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'full';
        ALTER TABLE tokens ADD COLUMN name TEXT;
        ALTER TABLE tokens ADD COLUMN expires_at INTEGER;
        CREATE INDEX tokens_by_account ON tokens (account_id);
        """,
        // 7: webhooks (their secrets sealed under the account's key) and each one's delivery log.
        """
        CREATE TABLE webhooks (
            hook_id    TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            url        TEXT NOT NULL,
            events     TEXT NOT NULL,
            secret     TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            removed_at INTEGER,
            cursor     INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX webhooks_by_account ON webhooks (account_id);
        CREATE TABLE webhook_attempts (
            hook_id     TEXT NOT NULL,
            delivery_id TEXT NOT NULL,
            position    INTEGER NOT NULL,
            type        TEXT NOT NULL,
            attempt     INTEGER NOT NULL,
            status      INTEGER NOT NULL,
            error       TEXT,
            at          INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX webhook_attempts_by_hook ON webhook_attempts (hook_id, at);
        """,
        // 8: accounts people make themselves: their Apple user or email address (hashed), codes waiting,
        // proofs used once, and the hashes of tokens an erasure removed.
        """
        CREATE TABLE sign_in_identities (
            provider   TEXT NOT NULL,
            subject    BLOB NOT NULL,
            account_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (provider, subject)
        ) STRICT;
        CREATE INDEX sign_in_identities_by_account ON sign_in_identities (account_id);
        CREATE TABLE sign_in_codes (
            email      BLOB PRIMARY KEY,
            code_hash  BLOB NOT NULL,
            expires_at INTEGER NOT NULL,
            attempts   INTEGER NOT NULL
        ) STRICT;
        CREATE TABLE sign_in_once (proof BLOB PRIMARY KEY, expires_at INTEGER NOT NULL) STRICT;
        CREATE TABLE erased_tokens (token_hash BLOB PRIMARY KEY, erased_at INTEGER NOT NULL) STRICT;
        """,
    ]

    public init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        db = try SQLiteDatabase(path: directory + "/accounts.sqlite")
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000; PRAGMA secure_delete = ON")
        try db.transaction {
            let found = Int(try db.scalarInt("PRAGMA user_version"))
            for (i, sql) in Self.migrations.enumerated() where i >= found { try db.execute(sql) }
            try db.execute("PRAGMA user_version = \(Self.migrations.count)")
        }
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    public func insertAccount(_ account: Account, createdAt: Int64) throws {
        try locked {
            try db.with("INSERT INTO accounts (account_id, name, coach, created_at) VALUES (?, ?, ?, ?)") { s in
                try s.bind(1, account.accountId)
                try s.bind(2, account.name)
                try s.bind(3, account.isCoach ? 1 : 0)
                try s.bind(4, createdAt)
                try s.run()
            }
        }
    }

    public func account(_ id: String) throws -> Account? {
        try locked {
            try db.with("SELECT account_id, name, coach FROM accounts WHERE account_id = ? AND erased_at IS NULL") { s in
                try s.bind(1, id)
                guard try s.step() else { return nil }
                return Account(accountId: s.text(0), name: s.text(1), isCoach: s.int(2) != 0)
            }
        }
    }

    public func accounts() throws -> [Account] {
        try locked {
            try db.with("SELECT account_id, name, coach FROM accounts WHERE erased_at IS NULL ORDER BY created_at, account_id") { s in
                var out: [Account] = []
                while try s.step() { out.append(Account(accountId: s.text(0), name: s.text(1), isCoach: s.int(2) != 0)) }
                return out
            }
        }
    }

    public func insertToken(_ token: StoredToken) throws {
        try locked {
            try db.with(
                "INSERT INTO tokens (token_hash, account_id, device, created_at, scope, name, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
            ) { s in
                try s.bind(1, token.hash)
                try s.bind(2, token.accountId)
                try s.bind(3, token.device)
                try s.bind(4, token.createdAt)
                try s.bind(5, token.scope.rawValue)
                if let name = token.name { try s.bind(6, name) } else { try s.bindNull(6) }
                if let expiresAt = token.expiresAt { try s.bind(7, expiresAt) } else { try s.bindNull(7) }
                try s.run()
            }
        }
    }

    public func revokeToken(hash: [UInt8], at time: Int64) throws -> Bool {
        try locked {
            try db.with("UPDATE tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL") { s in
                try s.bind(1, time)
                try s.bind(2, hash)
                try s.run()
                return db.changes == 1
            }
        }
    }

    private static let tokenColumns = "t.token_hash, t.account_id, t.device, t.name, t.scope, t.created_at, t.expires_at, t.revoked_at"

    private static func storedToken(_ s: SQLiteStatement) throws -> StoredToken {
        StoredToken(
            hash: s.bytes(0), accountId: s.text(1), device: s.text(2), name: s.isNull(3) ? nil : s.text(3),
            scope: TokenScope(rawValue: s.text(4)) ?? .read, createdAt: s.int(5), expiresAt: s.isNull(6) ? nil : s.int(6),
            revokedAt: s.isNull(7) ? nil : s.int(7))
    }

    public func token(hash: [UInt8]) throws -> (token: StoredToken, account: Account)? {
        try locked {
            try db.with(
                """
                SELECT \(Self.tokenColumns), a.name, a.coach FROM tokens t
                JOIN accounts a ON a.account_id = t.account_id WHERE t.token_hash = ? AND t.revoked_at IS NULL AND a.erased_at IS NULL
                """
            ) { s in
                try s.bind(1, hash)
                guard try s.step() else { return nil }
                let token = try Self.storedToken(s)
                return (token, Account(accountId: token.accountId, name: s.text(8), isCoach: s.int(9) != 0))
            }
        }
    }

    public func tokens(of account: String) throws -> [StoredToken] {
        try locked {
            try db.with("SELECT \(Self.tokenColumns) FROM tokens t WHERE t.account_id = ? ORDER BY t.created_at, t.token_hash") { s in
                try s.bind(1, account)
                var out: [StoredToken] = []
                while try s.step() { out.append(try Self.storedToken(s)) }
                return out
            }
        }
    }

    public func tokenHashes(withPrefix prefix: [UInt8]) throws -> [[UInt8]] {
        try locked {
            try db.with("SELECT token_hash FROM tokens WHERE substr(token_hash, 1, ?) = ?") { s in
                try s.bind(1, Int64(prefix.count))
                try s.bind(2, prefix)
                var out: [[UInt8]] = []
                while try s.step() { out.append(s.bytes(0)) }
                return out
            }
        }
    }

    /// Marks the account erased and deletes its name and tokens → how many tokens.
    package func erase(_ id: String) throws -> Int {
        try locked {
            let tokens = try db.transaction {
                try db.with("INSERT OR IGNORE INTO erased_tokens (token_hash, erased_at) SELECT token_hash, ?1 FROM tokens WHERE account_id = ?2") {
                    s in
                    try s.bind(1, Timestamp.now().millis); try s.bind(2, id); try s.run()
                }
                try db.with("DELETE FROM sign_in_identities WHERE account_id = ?") { s in
                    try s.bind(1, id); try s.run()
                }
                let tokens = try db.with("DELETE FROM tokens WHERE account_id = ?") { s in
                    try s.bind(1, id); try s.run(); return Int(db.changes)
                }
                try db.with("DELETE FROM coach_clients WHERE client_id = ?1 OR coach_id = ?1") { s in
                    try s.bind(1, id); try s.run()
                }
                try db.with("DELETE FROM coach_invites WHERE coach_id = ?") { s in
                    try s.bind(1, id); try s.run()
                }
                try db.with("DELETE FROM purchase_claims WHERE account_id = ?") { s in
                    try s.bind(1, id); try s.run()
                }
                try db.with("DELETE FROM webhook_attempts WHERE hook_id IN (SELECT hook_id FROM webhooks WHERE account_id = ?)") { s in
                    try s.bind(1, id); try s.run()
                }
                try db.with("DELETE FROM webhooks WHERE account_id = ?") { s in
                    try s.bind(1, id); try s.run()
                }
                try db.with("UPDATE accounts SET erased_at = ?, name = '' WHERE account_id = ?") { s in
                    try s.bind(1, Timestamp.now().millis)
                    try s.bind(2, id)
                    try s.run()
                }
                return tokens
            }
            // What the erasure removed leaves the WAL now, not at the next clean shutdown (secure_delete zeroes the freed pages).
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return tokens
        }
    }

    public func replaceName(_ id: String, with name: String) throws {
        try locked {
            try db.with("UPDATE accounts SET name = ? WHERE account_id = ?") { s in
                try s.bind(1, name)
                try s.bind(2, id)
                try s.run()
            }
            // The name it replaces leaves the WAL and the free pages too (secure_delete zeroes what a write frees).
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    public func indexCoachClients(client: String, coaches: Set<String>) throws {
        try locked {
            try db.transaction {
                for coach in coaches.sorted() {
                    try db.with("INSERT OR IGNORE INTO coach_clients (coach_id, client_id) VALUES (?, ?)") { s in
                        try s.bind(1, coach)
                        try s.bind(2, client)
                        try s.run()
                    }
                }
            }
        }
    }

    public func indexedClients(of coach: String) throws -> [Account] {
        try locked {
            try db.with(
                """
                SELECT a.account_id, a.name, a.coach FROM coach_clients g JOIN accounts a ON a.account_id = g.client_id
                WHERE g.coach_id = ? AND a.erased_at IS NULL ORDER BY a.created_at, a.account_id
                """
            ) { s in
                try s.bind(1, coach)
                var out: [Account] = []
                while try s.step() { out.append(Account(accountId: s.text(0), name: s.text(1), isCoach: s.int(2) != 0)) }
                return out
            }
        }
    }

    public func coachClientsIndexed() throws -> Bool {
        try locked { try db.scalarInt("SELECT COUNT(*) FROM backfills WHERE name = 'coach_clients'") > 0 }
    }

    public func markCoachClientsIndexed() throws {
        try locked {
            try db.with("INSERT OR IGNORE INTO backfills (name, done_at) VALUES ('coach_clients', ?)") { s in
                try s.bind(1, Timestamp.now().millis)
                try s.run()
            }
        }
    }

    public func removeAccount(_ id: String) throws {
        try locked {
            try db.with("DELETE FROM tokens WHERE account_id = ?") { s in
                try s.bind(1, id); try s.run()
            }
            try db.with("DELETE FROM coach_clients WHERE client_id = ?") { s in
                try s.bind(1, id); try s.run()
            }
            try db.with("DELETE FROM accounts WHERE account_id = ?") { s in
                try s.bind(1, id); try s.run()
            }
        }
    }

    // MARK: Invites

    static let inviteColumns = "invite_id, coach_id, code_hash, note, created_at, expires_at, used_at, used_by, revoked_at"

    private static func invite(_ s: SQLiteStatement) throws -> CoachInvite {
        CoachInvite(
            inviteId: s.text(0), coachId: s.text(1), codeHash: s.bytes(2), note: s.text(3), createdAt: s.int(4), expiresAt: s.int(5),
            usedAt: s.isNull(6) ? nil : s.int(6), usedBy: s.isNull(7) ? nil : s.text(7), revokedAt: s.isNull(8) ? nil : s.int(8))
    }

    public func insertInvite(_ i: CoachInvite) throws {
        try locked {
            try db.with("INSERT INTO coach_invites (\(Self.inviteColumns)) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, NULL)") { s in
                try s.bind(1, i.inviteId)
                try s.bind(2, i.coachId)
                try s.bind(3, i.codeHash)
                try s.bind(4, i.note)
                try s.bind(5, i.createdAt)
                try s.bind(6, i.expiresAt)
                try s.run()
            }
        }
    }

    public func invites(of coach: String) throws -> [CoachInvite] {
        try locked {
            try db.with("SELECT \(Self.inviteColumns) FROM coach_invites WHERE coach_id = ? ORDER BY created_at DESC, invite_id") { s in
                try s.bind(1, coach)
                var out: [CoachInvite] = []
                while try s.step() { out.append(try Self.invite(s)) }
                return out
            }
        }
    }

    public func invite(codeHash: [UInt8]) throws -> CoachInvite? {
        try locked {
            try db.with("SELECT \(Self.inviteColumns) FROM coach_invites WHERE code_hash = ?") { s in
                try s.bind(1, codeHash)
                return try s.step() ? try Self.invite(s) : nil
            }
        }
    }

    public func revokeInvite(_ id: String, coach: String, at: Int64) throws -> Bool {
        try locked {
            try db.with("UPDATE coach_invites SET revoked_at = ? WHERE invite_id = ? AND coach_id = ? AND used_at IS NULL AND revoked_at IS NULL") {
                s in
                try s.bind(1, at)
                try s.bind(2, id)
                try s.bind(3, coach)
                try s.run()
                return db.changes == 1
            }
        }
    }

    public func useInvite(_ id: String, client: String, at: Int64) throws -> Bool {
        try locked {
            try db.with(
                "UPDATE coach_invites SET used_at = ?1, used_by = ?2 WHERE invite_id = ?3 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?1"
            ) { s in
                try s.bind(1, at)
                try s.bind(2, client)
                try s.bind(3, id)
                try s.run()
                return db.changes == 1
            }
        }
    }

    public func claimPurchase(_ originalTransactionId: String, account: String, at: Int64) throws -> String {
        try locked {
            try db.with("INSERT INTO purchase_claims VALUES (?, ?, ?) ON CONFLICT DO NOTHING") { s in
                try s.bind(1, originalTransactionId)
                try s.bind(2, account)
                try s.bind(3, at)
                try s.run()
            }
            return try db.with("SELECT account_id FROM purchase_claims WHERE original_transaction_id = ?") { s in
                try s.bind(1, originalTransactionId)
                return try s.step() ? s.text(0) : account
            }
        }
    }
}

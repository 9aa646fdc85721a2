import Crypto
import Foundation
import RepLedgerCore

/// Accounts and their tokens, in `DIR/accounts.sqlite` beside the accounts'
/// ledgers. Tokens are random (256 bits), shown once and stored only as their
/// SHA-256; a lookup hashes what it was given and compares in constant time.
public final class AccountDirectory: @unchecked Sendable {
    public struct Account: Sendable, Equatable {
        public var accountId: String
        public var name: String
        public var isCoach: Bool
    }

    /// Who a request's token speaks for.
    public struct Caller: Sendable, Equatable {
        public var account: Account
        /// The device name of the token: the `device` of the events it appends.
        public var device: String
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unknownAccount(String)
        case unknownToken
        case invalidName(String)

        public var description: String {
            switch self {
            case .unknownAccount(let a): return "no account '\(a)' on this server. See `ledger server account create`"
            case .unknownToken: return "no such token on this server (revoked already, or of another server)"
            case .invalidName(let why): return why
            }
        }
    }

    let db: SQLiteDatabase
    private let lock = NSLock()

    static let migrations = [
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
    ]

    public init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        db = try SQLiteDatabase(path: directory + "/accounts.sqlite")
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000")
        try db.transaction {
            let found = Int(try db.scalarInt("PRAGMA user_version"))
            for (i, sql) in Self.migrations.enumerated() where i >= found { try db.execute(sql) }
            try db.execute("PRAGMA user_version = \(Self.migrations.count)")
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// A new account → its id (a UUID, lowercased).
    public func createAccount(name: String, coach: Bool, id: String = UUID().uuidString.lowercased()) throws -> Account {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 200 else { throw Failure.invalidName("an account name takes 1 to 200 characters") }
        let account = Account(accountId: id, name: trimmed, isCoach: coach)
        try locked {
            try db.with("INSERT INTO accounts (account_id, name, coach, created_at) VALUES (?, ?, ?, ?)") { s in
                try s.bind(1, account.accountId)
                try s.bind(2, account.name)
                try s.bind(3, coach ? 1 : 0)
                try s.bind(4, Timestamp.now().millis)
                try s.run()
            }
        }
        return account
    }

    public func account(_ id: String) throws -> Account? {
        try locked {
            try db.with("SELECT account_id, name, coach FROM accounts WHERE account_id = ? AND erased_at IS NULL") { s in
                try s.bind(1, id.lowercased())
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

    /// A new token for the account and device: returned once, stored hashed.
    public func createToken(account id: String, device: String) throws -> String {
        guard let account = try account(id) else { throw Failure.unknownAccount(id) }
        let name = device.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100 else { throw Failure.invalidName("a device name takes 1 to 100 characters") }
        var bytes = [UInt8](repeating: 0, count: 32)
        var rng = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = UInt8.random(in: .min ... .max, using: &rng) }
        let token = "rl_" + bytes.map { String(format: "%02x", $0) }.joined()
        try locked {
            try db.with("INSERT INTO tokens (token_hash, account_id, device, created_at) VALUES (?, ?, ?, ?)") { s in
                try s.bind(1, Self.hash(token))
                try s.bind(2, account.accountId)
                try s.bind(3, name)
                try s.bind(4, Timestamp.now().millis)
                try s.run()
            }
        }
        return token
    }

    /// Revokes a token; it answers 401 from the next request on.
    public func revokeToken(_ token: String) throws {
        let changed = try locked {
            try db.with("UPDATE tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL") { s in
                try s.bind(1, Timestamp.now().millis)
                try s.bind(2, Self.hash(token))
                try s.run()
                return db.changes
            }
        }
        guard changed == 1 else { throw Failure.unknownToken }
    }

    /// The caller a bearer token speaks for; nil for an unknown or revoked token.
    /// The row is found by the token's hash; the stored hash is then compared
    /// in constant time, so timing says nothing about near misses.
    public func caller(token: String) throws -> Caller? {
        let presented = Self.hash(token)
        return try locked {
            try db.with("""
                SELECT t.token_hash, t.device, a.account_id, a.name, a.coach FROM tokens t
                JOIN accounts a ON a.account_id = t.account_id WHERE t.token_hash = ? AND t.revoked_at IS NULL AND a.erased_at IS NULL
                """) { s in
                try s.bind(1, presented)
                guard try s.step(), Self.constantTimeEqual(s.bytes(0), presented) else { return nil }
                return Caller(account: Account(accountId: s.text(2), name: s.text(3), isCoach: s.int(4) != 0), device: s.text(1))
            }
        }
    }

    static func hash(_ token: String) -> [UInt8] { Array(SHA256.hash(data: Array(token.utf8))) }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}

extension AccountDirectory {
    /// Marks the account erased and deletes its name and tokens → how many tokens.
    public func erase(_ id: String) throws -> Int {
        try db.transaction {
            let tokens = try db.with("DELETE FROM tokens WHERE account_id = ?") { s in try s.bind(1, id); try s.run(); return Int(db.changes) }
            try db.with("UPDATE accounts SET erased_at = ?, name = '' WHERE account_id = ?") { s in
                try s.bind(1, Timestamp.now().millis)
                try s.bind(2, id)
                try s.run()
            }
            return tokens
        }
    }

    /// Removes an account that never came into use (an import that failed).
    public func removeAccount(_ id: String) throws {
        try db.with("DELETE FROM tokens WHERE account_id = ?") { s in try s.bind(1, id); try s.run() }
        try db.with("DELETE FROM accounts WHERE account_id = ?") { s in try s.bind(1, id); try s.run() }
    }
}

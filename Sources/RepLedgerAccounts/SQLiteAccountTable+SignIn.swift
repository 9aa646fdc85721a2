import RepLedgerSQLite

extension SQLiteAccountTable {
    public func identityAccount(provider: String, subject: [UInt8]) throws -> String? {
        try locked {
            try db.with(
                """
                SELECT i.account_id FROM sign_in_identities i JOIN accounts a ON a.account_id = i.account_id
                WHERE i.provider = ? AND i.subject = ? AND a.erased_at IS NULL
                """
            ) { s in
                try s.bind(1, provider)
                try s.bind(2, subject)
                return try s.step() ? s.text(0) : nil
            }
        }
    }

    public func claimIdentity(provider: String, subject: [UInt8], account: String, at: Int64) throws -> String {
        try locked {
            try db.transaction {
                try db.with("INSERT OR IGNORE INTO sign_in_identities (provider, subject, account_id, created_at) VALUES (?, ?, ?, ?)") { s in
                    try s.bind(1, provider)
                    try s.bind(2, subject)
                    try s.bind(3, account)
                    try s.bind(4, at)
                    try s.run()
                }
                return try db.with("SELECT account_id FROM sign_in_identities WHERE provider = ? AND subject = ?") { s in
                    try s.bind(1, provider)
                    try s.bind(2, subject)
                    _ = try s.step()
                    return s.text(0)
                }
            }
        }
    }

    public func replaceCode(_ code: SignInCode) throws {
        try locked {
            try db.with("INSERT OR REPLACE INTO sign_in_codes (email, code_hash, expires_at, attempts) VALUES (?, ?, ?, ?)") { s in
                try s.bind(1, code.email)
                try s.bind(2, code.codeHash)
                try s.bind(3, code.expiresAt)
                try s.bind(4, Int64(code.attempts))
                try s.run()
            }
        }
    }

    public func code(email: [UInt8]) throws -> SignInCode? {
        try locked {
            try db.with("SELECT code_hash, expires_at, attempts FROM sign_in_codes WHERE email = ?") { s in
                try s.bind(1, email)
                guard try s.step() else { return nil }
                return SignInCode(email: email, codeHash: s.bytes(0), expiresAt: s.int(1), attempts: Int(s.int(2)))
            }
        }
    }

    public func countWrongCode(email: [UInt8]) throws {
        try locked {
            try db.with("UPDATE sign_in_codes SET attempts = attempts + 1 WHERE email = ?") { s in
                try s.bind(1, email)
                try s.run()
            }
        }
    }

    public func consumeCode(email: [UInt8], codeHash: [UInt8]) throws -> Bool {
        try locked {
            try db.with("DELETE FROM sign_in_codes WHERE email = ? AND code_hash = ?") { s in
                try s.bind(1, email)
                try s.bind(2, codeHash)
                try s.run()
                return db.changes == 1
            }
        }
    }

    public func claimOnce(_ proof: [UInt8], expiresAt: Int64, now: Int64) throws -> Bool {
        try locked {
            try db.transaction {
                try db.with("DELETE FROM sign_in_once WHERE expires_at < ?") { s in
                    try s.bind(1, now)
                    try s.run()
                }
                return try db.with("INSERT OR IGNORE INTO sign_in_once (proof, expires_at) VALUES (?, ?)") { s in
                    try s.bind(1, proof)
                    try s.bind(2, expiresAt)
                    try s.run()
                    return db.changes == 1
                }
            }
        }
    }

    public func wasErased(tokenHash: [UInt8]) throws -> Bool {
        try locked {
            try db.with("SELECT 1 FROM erased_tokens WHERE token_hash = ?") { s in
                try s.bind(1, tokenHash)
                return try s.step()
            }
        }
    }
}

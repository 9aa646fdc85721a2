import Foundation
import NIOCore
import PostgresNIO
import RepLedgerPostgres

extension PostgresAccountTable {
    private static func bytes(_ b: [UInt8]) -> ByteBuffer { ByteBuffer(bytes: b) }

    package func identityAccount(provider: String, subject: [UInt8]) throws -> String? {
        try pool.withConnection { c in
            try pool.run(
                c,
                """
                SELECT i.account_id FROM sign_in_identities i JOIN accounts a ON a.account_id = i.account_id
                WHERE i.provider = \(provider) AND i.subject = \(Self.bytes(subject)) AND a.erased_at IS NULL
                """
            ).rows.first.map { try $0.decode(UUID.self).uuidString.lowercased() }
        }
    }

    package func claimIdentity(provider: String, subject: [UInt8], account: String, at: Int64) throws -> String {
        guard let id = UUID(uuidString: account) else { throw AccountDirectory.Failure.unknownAccount(account) }
        return try pool.withConnection { c in
            try pool.run(
                c,
                """
                INSERT INTO sign_in_identities (provider, subject, account_id, created_at)
                VALUES (\(provider), \(Self.bytes(subject)), \(id), \(at)) ON CONFLICT DO NOTHING
                """)
            let row = try pool.run(
                c, "SELECT account_id FROM sign_in_identities WHERE provider = \(provider) AND subject = \(Self.bytes(subject))"
            ).rows.first
            return try row?.decode(UUID.self).uuidString.lowercased() ?? account
        }
    }

    package func replaceCode(_ code: SignInCode) throws {
        _ = try pool.withConnection { c in
            try pool.run(
                c,
                """
                INSERT INTO sign_in_codes (email, code_hash, expires_at, attempts)
                VALUES (\(Self.bytes(code.email)), \(Self.bytes(code.codeHash)), \(code.expiresAt), \(code.attempts))
                ON CONFLICT (email) DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, attempts = EXCLUDED.attempts
                """)
        }
    }

    package func code(email: [UInt8]) throws -> SignInCode? {
        try pool.withConnection { c in
            try pool.run(c, "SELECT code_hash, expires_at, attempts FROM sign_in_codes WHERE email = \(Self.bytes(email))").rows.first.map { row in
                let (hash, expiresAt, attempts) = try row.decode((ByteBuffer, Int64, Int32).self)
                return SignInCode(email: email, codeHash: Array(buffer: hash), expiresAt: expiresAt, attempts: Int(attempts))
            }
        }
    }

    package func countWrongCode(email: [UInt8]) throws {
        _ = try pool.withConnection { c in
            try pool.run(c, "UPDATE sign_in_codes SET attempts = attempts + 1 WHERE email = \(Self.bytes(email))")
        }
    }

    package func consumeCode(email: [UInt8], codeHash: [UInt8]) throws -> Bool {
        try pool.withConnection { c in
            try !pool.run(
                c, "DELETE FROM sign_in_codes WHERE email = \(Self.bytes(email)) AND code_hash = \(Self.bytes(codeHash)) RETURNING 1"
            ).rows.isEmpty
        }
    }

    package func claimOnce(_ proof: [UInt8], expiresAt: Int64, now: Int64) throws -> Bool {
        try pool.withConnection { c in
            try pool.run(c, "DELETE FROM sign_in_once WHERE expires_at < \(now)")
            return try !pool.run(
                c,
                "INSERT INTO sign_in_once (proof, expires_at) VALUES (\(Self.bytes(proof)), \(expiresAt)) ON CONFLICT DO NOTHING RETURNING 1"
            ).rows.isEmpty
        }
    }

    package func wasErased(tokenHash: [UInt8]) throws -> Bool {
        try pool.withConnection { c in
            try !pool.run(c, "SELECT 1 FROM erased_tokens WHERE token_hash = \(Self.bytes(tokenHash))").rows.isEmpty
        }
    }
}

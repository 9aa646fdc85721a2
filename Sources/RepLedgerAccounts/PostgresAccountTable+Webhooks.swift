import Foundation
import NIOCore
import PostgresNIO
import RepLedgerPostgres

extension PostgresAccountTable {
    private static func hook(_ row: PostgresRow) throws -> StoredWebhook {
        let (hookId, accountId, url, events, secret, createdAt, removedAt, cursor) = try row.decode(
            (UUID, UUID, String, String, String, Int64, Int64?, Int64).self)
        return StoredWebhook(
            hookId: hookId.uuidString.lowercased(), accountId: accountId.uuidString.lowercased(), url: url,
            events: events.split(separator: ",").map(String.init), secret: secret, createdAt: createdAt, removedAt: removedAt, cursor: cursor)
    }

    private func hookUUID(_ id: String) -> UUID? { UUID(uuidString: id) }

    package func insertWebhook(_ hook: StoredWebhook) throws {
        guard let account = UUID(uuidString: hook.accountId), let id = hookUUID(hook.hookId) else {
            throw AccountDirectory.Failure.unknownAccount(hook.accountId)
        }
        _ = try pool.withConnection { c in
            try pool.run(
                c,
                """
                INSERT INTO webhooks (account_id, hook_id, url, events, secret, created_at, cursor)
                VALUES (\(account), \(id), \(hook.url), \(hook.events.joined(separator: ",")), \(hook.secret), \(hook.createdAt), \(hook.cursor))
                """)
        }
    }

    package func webhooks(of account: String?) throws -> [StoredWebhook] {
        try pool.withConnection { c in
            let rows: [PostgresRow]
            if let account {
                guard let u = UUID(uuidString: account) else { return [] }
                rows = try pool.run(
                    c,
                    """
                    SELECT w.hook_id, w.account_id, w.url, w.events, w.secret, w.created_at, w.removed_at, w.cursor
                    FROM webhooks w JOIN accounts a ON a.account_id = w.account_id
                    WHERE w.removed_at IS NULL AND a.erased_at IS NULL AND w.account_id = \(u) ORDER BY w.created_at, w.hook_id
                    """
                ).rows
            } else {
                rows = try pool.run(
                    c,
                    """
                    SELECT w.hook_id, w.account_id, w.url, w.events, w.secret, w.created_at, w.removed_at, w.cursor
                    FROM webhooks w JOIN accounts a ON a.account_id = w.account_id
                    WHERE w.removed_at IS NULL AND a.erased_at IS NULL ORDER BY w.created_at, w.hook_id
                    """
                ).rows
            }
            return try rows.map(Self.hook)
        }
    }

    package func webhook(_ hookId: String) throws -> StoredWebhook? {
        guard let id = hookUUID(hookId) else { return nil }
        return try pool.withConnection { c in
            try pool.run(
                c,
                """
                SELECT hook_id, account_id, url, events, secret, created_at, removed_at, cursor FROM webhooks WHERE hook_id = \(id)
                """
            ).rows.first.map(Self.hook)
        }
    }

    package func removeWebhook(_ hookId: String, at time: Int64) throws -> Bool {
        guard let id = hookUUID(hookId) else { return false }
        return try pool.withConnection { c in
            let result = try pool.run(c, "UPDATE webhooks SET removed_at = \(time) WHERE hook_id = \(id) AND removed_at IS NULL")
            return (result.metadata.rows ?? 0) == 1
        }
    }

    package func advanceWebhook(_ hookId: String, to position: Int64) throws {
        guard let id = hookUUID(hookId) else { return }
        _ = try pool.withConnection { c in
            try pool.run(c, "UPDATE webhooks SET cursor = GREATEST(cursor, \(position)) WHERE hook_id = \(id)")
        }
    }

    package func insertAttempt(_ a: WebhookAttempt) throws {
        guard let id = hookUUID(a.hookId) else { return }
        _ = try pool.withConnection { c in
            try pool.run(
                c,
                """
                INSERT INTO webhook_attempts (account_id, hook_id, delivery_id, position, type, attempt, status, error, at)
                SELECT account_id, hook_id, \(a.deliveryId), \(a.position), \(a.type), \(Int32(a.attempt)), \(Int32(a.status)), \(a.error), \(a.at)
                FROM webhooks WHERE hook_id = \(id)
                """)
        }
    }

    package func attempts(of hookId: String, limit: Int) throws -> [WebhookAttempt] {
        guard let id = hookUUID(hookId) else { return [] }
        return try pool.withConnection { c in
            try pool.run(
                c,
                """
                SELECT hook_id, delivery_id, position, type, attempt, status, error, at FROM webhook_attempts
                WHERE hook_id = \(id) ORDER BY at DESC, id DESC LIMIT \(Int64(limit))
                """
            ).rows.map { row in
                let (hook, delivery, position, type, attempt, status, error, at) = try row.decode(
                    (UUID, String, Int64, String, Int32, Int32, String?, Int64).self)
                return WebhookAttempt(
                    hookId: hook.uuidString.lowercased(), deliveryId: delivery, position: position, type: type, attempt: Int(attempt),
                    status: Int(status), error: error, at: at)
            }
        }
    }
}

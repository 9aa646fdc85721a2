import RepLedgerSQLite

extension SQLiteAccountTable {
    private static let hookColumns = "w.hook_id, w.account_id, w.url, w.events, w.secret, w.created_at, w.removed_at, w.cursor"

    private static func hook(_ s: SQLiteStatement) -> StoredWebhook {
        StoredWebhook(
            hookId: s.text(0), accountId: s.text(1), url: s.text(2), events: s.text(3).split(separator: ",").map(String.init),
            secret: s.text(4), createdAt: s.int(5), removedAt: s.isNull(6) ? nil : s.int(6), cursor: s.int(7))
    }

    public func insertWebhook(_ hook: StoredWebhook) throws {
        try locked {
            try db.with(
                "INSERT INTO webhooks (hook_id, account_id, url, events, secret, created_at, cursor) VALUES (?, ?, ?, ?, ?, ?, ?)"
            ) { s in
                try s.bind(1, hook.hookId)
                try s.bind(2, hook.accountId)
                try s.bind(3, hook.url)
                try s.bind(4, hook.events.joined(separator: ","))
                try s.bind(5, hook.secret)
                try s.bind(6, hook.createdAt)
                try s.bind(7, hook.cursor)
                try s.run()
            }
        }
    }

    public func webhooks(of account: String?) throws -> [StoredWebhook] {
        try locked {
            try db.with(
                """
                SELECT \(Self.hookColumns) FROM webhooks w JOIN accounts a ON a.account_id = w.account_id
                WHERE w.removed_at IS NULL AND a.erased_at IS NULL AND (?1 IS NULL OR w.account_id = ?1) ORDER BY w.created_at, w.hook_id
                """
            ) { s in
                if let account { try s.bind(1, account) } else { try s.bindNull(1) }
                var out: [StoredWebhook] = []
                while try s.step() { out.append(Self.hook(s)) }
                return out
            }
        }
    }

    public func webhook(_ hookId: String) throws -> StoredWebhook? {
        try locked {
            try db.with("SELECT \(Self.hookColumns) FROM webhooks w WHERE w.hook_id = ?") { s in
                try s.bind(1, hookId)
                return try s.step() ? Self.hook(s) : nil
            }
        }
    }

    public func removeWebhook(_ hookId: String, at time: Int64) throws -> Bool {
        try locked {
            try db.with("UPDATE webhooks SET removed_at = ? WHERE hook_id = ? AND removed_at IS NULL") { s in
                try s.bind(1, time)
                try s.bind(2, hookId)
                try s.run()
                return db.changes == 1
            }
        }
    }

    public func advanceWebhook(_ hookId: String, to position: Int64) throws {
        try locked {
            try db.with("UPDATE webhooks SET cursor = max(cursor, ?) WHERE hook_id = ?") { s in
                try s.bind(1, position)
                try s.bind(2, hookId)
                try s.run()
            }
        }
    }

    public func insertAttempt(_ a: WebhookAttempt) throws {
        try locked {
            try db.with(
                "INSERT INTO webhook_attempts (hook_id, delivery_id, position, type, attempt, status, error, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            ) { s in
                try s.bind(1, a.hookId)
                try s.bind(2, a.deliveryId)
                try s.bind(3, a.position)
                try s.bind(4, a.type)
                try s.bind(5, Int64(a.attempt))
                try s.bind(6, Int64(a.status))
                if let error = a.error { try s.bind(7, error) } else { try s.bindNull(7) }
                try s.bind(8, a.at)
                try s.run()
            }
        }
    }

    public func attempts(of hookId: String, limit: Int) throws -> [WebhookAttempt] {
        try locked {
            try db.with(
                """
                SELECT hook_id, delivery_id, position, type, attempt, status, error, at FROM webhook_attempts
                WHERE hook_id = ? ORDER BY at DESC, rowid DESC LIMIT ?
                """
            ) { s in
                try s.bind(1, hookId)
                try s.bind(2, Int64(limit))
                var out: [WebhookAttempt] = []
                while try s.step() {
                    out.append(
                        WebhookAttempt(
                            hookId: s.text(0), deliveryId: s.text(1), position: s.int(2), type: s.text(3), attempt: Int(s.int(4)),
                            status: Int(s.int(5)), error: s.isNull(6) ? nil : s.text(6), at: s.int(7)))
                }
                return out
            }
        }
    }
}

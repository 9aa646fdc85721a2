import RepLedgerAccounts
import RepLedgerCore

/// `/v1/devices`: a signed-in person's devices, each a token of their own account. Any `full` token of
/// the account may add, list and revoke them (a phone adds the laptop); a new device's token is shown once.
extension LedgerAPI {
    /// A new device of the caller's account → `{"token","tokenId","device"}` (the token shown only here).
    public func addDevice(_ caller: AccountDirectory.Caller, body: String, now: Timestamp = .now()) throws -> JSONValue {
        try requireFullScope(caller, to: "add a device")
        let fields = try Self.fields(body, allowed: ["device"])
        guard case .string(let device)? = fields["device"] else { throw APIError.badRequest(#"the body is {"device":"Lina's iPhone"}"#) }
        do {
            let token = try accounts.createToken(account: caller.account.accountId, device: device, scope: .full, now: now)
            return .object([
                ("token", .string(token)), ("tokenId", .string(StoredToken.id(of: AccountDirectory.hash(token)))),
                ("device", .string(device.trimmingCharacters(in: .whitespaces))),
            ])
        } catch let failure as AccountDirectory.Failure {
            throw APIError.directory(failure)
        }
    }

    /// The account's devices in use (not revoked, not expired), oldest first; `current` marks the caller's own.
    public func devices(_ caller: AccountDirectory.Caller, now: Timestamp = .now()) throws -> JSONValue {
        .object([("devices", .array(try deviceList(caller, now: now).map(\.json)))])
    }

    /// A device as the account's list shows it.
    public struct Device: Sendable, Equatable {
        public var id: String
        public var device: String
        public var scope: TokenScope
        public var createdAt: Timestamp
        public var expiresAt: Timestamp?
        public var current: Bool

        public var json: JSONValue {
            .object([
                ("id", .string(id)), ("device", .string(device)), ("scope", .string(scope.rawValue)), ("createdAt", .string(createdAt.iso8601)),
                ("expiresAt", expiresAt.map { .string($0.iso8601) } ?? .null), ("current", .bool(current)),
            ])
        }
    }

    public func deviceList(_ caller: AccountDirectory.Caller, now: Timestamp = .now()) throws -> [Device] {
        try accounts.tokens(of: caller.account.accountId).filter { t in
            t.revokedAt == nil && (t.expiresAt.map { $0.millis > now.millis } ?? true)
        }.map { t in
            Device(id: t.id, device: t.device, scope: t.scope, createdAt: t.createdAt, expiresAt: t.expiresAt, current: t.id == caller.tokenId)
        }
    }

    /// Revokes one of the caller's account's devices by its listed id; it answers 401 from its next request.
    public func revokeDevice(_ caller: AccountDirectory.Caller, id: String, now: Timestamp = .now()) throws -> JSONValue {
        try requireFullScope(caller, to: "revoke a device")
        guard let device = try deviceList(caller, now: now).first(where: { $0.id == id.lowercased() }) else {
            throw APIError.notFound("this account has no device in use with id '\(id)'")
        }
        try accounts.revokeToken(id: device.id)
        return .object([("revoked", .string(device.id)), ("device", .string(device.device))])
    }

    /// A small JSON object's fields, refusing any it does not take (a misspelt one is never silently ignored).
    package static func fields(_ body: String, allowed: Set<String>) throws -> [String: JSONValue] {
        guard case .object(let pairs)? = try? JSONReader.parse(body) else { throw APIError.badRequest("the body is not a JSON object") }
        var out: [String: JSONValue] = [:]
        for (key, value) in pairs {
            guard allowed.contains(key) else {
                throw APIError.badRequest("unknown field '\(key)': this request takes \(allowed.sorted().joined(separator: ", "))")
            }
            out[key] = value
        }
        return out
    }
}

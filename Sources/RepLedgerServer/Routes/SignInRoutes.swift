import Hummingbird
import NIOCore
import RepLedgerCore
import RepLedgerService

/// `/v1/auth/…` (no token: this is how one is had) and `/v1/devices` (a signed-in
/// person's devices), declared as `APIRoute`s. The work is `SignInDesk`'s and `LedgerAPI`'s; these read
/// the body and the caller's address (what sign-in attempts are counted by).
extension LedgerRoutes {
    func signInRoutes() -> [APIRoute] {
        [
            APIRoute(.post, .appleSignIn, .open) { request, context in
                let f = try LedgerAPI.fields(try await Self.smallBody(request), allowed: ["identityToken", "nonce", "device", "name"])
                let token = try Self.text(f, "identityToken"), nonce = try Self.text(f, "nonce"), device = try Self.text(f, "device")
                let name = try Self.optionalText(f, "name"), address = Self.address(context)
                return Self.json(
                    try await blocking(for: nil) { [api] in
                        try api.signIn.signInWithApple(identityToken: token, nonce: nonce, device: device, name: name, address: address).json
                    })
            },
            APIRoute(.post, .emailSignInStart, .open) { request, context in
                let f = try LedgerAPI.fields(try await Self.smallBody(request), allowed: ["email"])
                let email = try Self.text(f, "email"), address = Self.address(context)
                try await blocking(for: nil) { [api] in try api.signIn.startEmail(email, address: address) }
                // The same answer whether or not the address has an account.
                return Self.json(.object([("sent", .bool(true))]), status: 202)
            },
            APIRoute(.post, .emailSignInVerify, .open) { request, context in
                let f = try LedgerAPI.fields(try await Self.smallBody(request), allowed: ["email", "code", "device", "name"])
                let email = try Self.text(f, "email"), code = try Self.text(f, "code"), device = try Self.text(f, "device")
                let name = try Self.optionalText(f, "name"), address = Self.address(context)
                return Self.json(
                    try await blocking(for: nil) { [api] in
                        try api.signIn.verifyEmail(email, code: code, device: device, name: name, address: address).json
                    })
            },
            APIRoute(.get, "v1/devices", .token) { _, context in
                let caller = try context.authenticated()
                return Self.json(try await blocking { [api] in try api.devices(caller) })
            },
            APIRoute(.post, "v1/devices", .token) { request, context in
                let caller = try context.authenticated(), body = try await Self.smallBody(request)
                return Self.json(try await blocking { [api] in try api.addDevice(caller, body: body) }, status: 201)
            },
            APIRoute(.delete, "v1/devices/:device", .token) { _, context in
                let caller = try context.authenticated(), id = context.segment("device")
                return Self.json(try await blocking { [api] in try api.revokeDevice(caller, id: id) })
            },
        ]
    }

    /// Where a request came from, as sign-in attempts are counted.
    static func address(_ context: Context) -> String { context.remoteAddress?.ipAddress ?? "unknown" }

    static func text(_ fields: [String: JSONValue], _ key: String) throws -> String {
        guard case .string(let s)? = fields[key], !s.isEmpty else { throw APIError.badRequest("\(key) takes a string, and is required") }
        guard s.utf8.count <= 8 << 10 else { throw APIError.badRequest("\(key) is too long") }
        return s
    }

    static func optionalText(_ fields: [String: JSONValue], _ key: String) throws -> String? {
        guard fields[key] != nil, fields[key] != .null else { return nil }
        return try text(fields, key)
    }
}

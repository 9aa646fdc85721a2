import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import RepLedgerAccounts
import RepLedgerService

@testable import RepLedgerServer

/// The server's API and routes over fresh storage in a folder of their own, with one account and a full token for
/// it: what the in-process tests run against, on a live loopback port.
struct InProcessServer {
    let api: LedgerAPI
    let routes: LedgerRoutes
    let account: String
    let token: String

    /// Runs `body` with a fresh server; its folder is removed after, whatever the outcome.
    static func with<T>(_ body: (InProcessServer) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = try AccountKeyStore(directory: folder.appendingPathComponent("keys").path, create: true)
        let api = LedgerAPI(storage: try SQLiteServerStorage(directory: folder.path, keys: keys))
        let account = try api.accounts.createAccount(name: "lifter", coach: false).accountId
        let token = try api.accounts.createToken(account: account, device: "phone")
        let routes = LedgerRoutes(api: api, keepAliveSeconds: 1, logger: logger)
        return try await body(InProcessServer(api: api, routes: routes, account: account, token: token))
    }

    static let logger = Logger(label: "in-process-server") { _ in SwiftLogNoOpLogHandler() }

    /// The routes on a live loopback port, asked through `client`.
    func live(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: routes.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: Self.logger)
        try await app.test(.live, body)
    }
}

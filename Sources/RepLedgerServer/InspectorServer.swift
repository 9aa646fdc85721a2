import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import RepLedgerCore
import RepLedgerWeb
import ServiceLifecycle

/// `ledger inspect`: the inspector's pages over one ledger on a small HTTP
/// server of their own, stopped by SIGINT or SIGTERM. Every read runs on one
/// worker thread, off the event loop, under the ledger's lock.
package enum InspectorServer {
    /// Runs until a signal stops it; `onListening` gets the bound port and the address to open (with its one-time code).
    package static func run(
        ledger: InspectedLedger, host: String, port: Int, logger: Logger, onListening: @escaping @Sendable (Int, String) -> Void
    ) async throws {
        let workers = NIOThreadPool(numberOfThreads: 1)
        workers.start()
        let loopback = ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
        let door = InspectorCodeDoor(ledger: ledger)
        let web = InspectorWeb(door: door, secureCookies: !loopback, blocking: { work in try await workers.runIfActive(work) })
        let router = Router()
        web.addRoutes(to: router.group("inspect"))
        web.addOpenRoute(to: router.group("inspect"), door: door)
        router.get("") { _, _ in CoachWeb.redirect("/inspect/log") }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let shown = host.contains(":") ? "[\(host)]" : host
                onListening(bound, "http://\(shown):\(bound)/inspect/open?code=\(door.sessions.newCode())")
            },
            logger: logger)
        try await LedgerServer.runUntilSignalled([app], workers: workers, logger: logger)
    }
}

import Foundation
import Hummingbird
import Logging
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerService
import Testing

@testable import RepLedgerServer

/// Each API route is declared once (`APIRoute`): the router, the 405's methods, the metric labels and the OpenAPI
/// document's paths all come from, or are held to, those declarations.
@Suite struct RouteDeclarationTests {
    static func declared() async throws -> [APIRoute] { try await InProcessServer.with { $0.routes.apiRoutes() } }

    @Test("the OpenAPI document lists exactly the declared routes, each with its declared methods")
    func openAPIPathsAreTheDeclaredOnes() async throws {
        var declared: [String: Set<String>] = [:]
        for route in try await Self.declared() {
            if let path = route.documented { declared[path, default: []].insert(route.method.rawValue.lowercased()) }
        }
        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var documented: [String: Set<String>] = [:]
        for (path, item) in paths { documented[path] = Set(item.keys.filter { ["get", "post", "put", "patch", "delete"].contains($0) }) }
        #expect(declared == documented)
        #expect(declared.count == 32, "\(declared.keys.sorted())")
    }

    @Test("no method and path is declared twice, and every account route asks for a token")
    func declarationsAreUnique() async throws {
        let routes = try await Self.declared()
        let keys = routes.map { "\($0.method.rawValue) \($0.path)" }
        #expect(Set(keys).count == keys.count)
        let tokenRoutes = routes.filter { $0.path.hasPrefix("v1/accounts") || $0.path.hasPrefix("v1/coach") || $0.path == "mcp" }
        let open = routes.filter { $0.path.hasPrefix("v1/auth") || $0.path == "v1/health" }
        #expect(tokenRoutes.count == 42 && tokenRoutes.allSatisfy { $0.authenticated }, "\(tokenRoutes.map(\.path))")
        #expect(open.count == 4 && open.allSatisfy { !$0.authenticated })
    }

    @Test("every path a client of this package calls is a declared route, and its URL fills each parameter")
    func clientPathsAreDeclaredRoutes() async throws {
        let declared = Set(try await Self.declared().map(\.path))
        for path in APIPath.all { #expect(declared.contains(path.pattern), "\(path.pattern)") }
        #expect(APIPath.events.path("a1") == "/v1/accounts/a1/events")
        #expect(APIPath.coachInvite.path("i2") == "/v1/coach/invites/i2")
        #expect(APIPath.coachClients.path() == "/v1/coach/clients")
    }
}

import Foundation
import LedgerTestSupport
import Testing

/// The served OpenAPI document stays true: every documented operation is
/// served and answers one of its documented statuses; every method the server
/// accepts on a documented path is documented.
@Suite(
    .serialized,
    .disabled(if: ServerProcess.onPostgres, "the document and the routes are the same over either store; CI fuzzes the API on PostgreSQL"))
struct OpenAPITests {
    @Test func theDocumentMatchesTheServedRoutes() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let (alice, _) = try server.accountWithDemo()

        let doc = try #require(try await server.get("/v1/openapi.json", token: nil).json)
        #expect(doc["openapi"] as? String == "3.1.0")
        let paths = try #require(doc["paths"] as? [String: [String: Any]])
        let methods = ["get", "post", "put", "patch", "delete"]
        let samples = [
            "account": alice.id, "exercise": "Bench%20Press%20(Barbell)", "workout": "last", "invite": UUID().uuidString,
            "device": "0011223344556677", "weight": "102.5",
        ]
        for (template, item) in paths.sorted(by: { $0.key < $1.key }) {
            var path = template
            for (name, value) in samples { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
            #expect(!path.contains("{"), "\(template) has a parameter without a sample")
            for method in methods {
                let documented = item[method] as? [String: Any]
                // Erasure would end the test, and a live stream never ends: both have tests of their own.
                if method == "delete" || template.hasSuffix("/live") {
                    #expect(method != "delete" || documented != nil || template != "/v1/accounts/{account}")
                    continue
                }
                let body = method == "post" ? #"{"events":[]}"# : nil
                let reply = try await server.request(.init(rawValue: method.uppercased()), path, token: alice.token, body: body)
                if let documented {
                    let statuses = Set(((documented["responses"] as? [String: Any]) ?? [:]).keys)
                    #expect(
                        statuses.contains(String(reply.status)),
                        "\(method.uppercased()) \(template) answered \(reply.status): \(reply.body.prefix(200))")
                    #expect(reply.status != 405, "\(method.uppercased()) \(template) is documented but not served")
                } else {
                    #expect(reply.status == 405, "\(method.uppercased()) \(template) is served (\(reply.status)) but not documented")
                }
            }
        }
        // That every routed path is in the document is RouteDeclarationTests': the routes are declared once, in process.
    }
}

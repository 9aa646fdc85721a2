import Hummingbird
import Testing

@testable import RepLedgerServer

/// The methods of a routed path, for the 405 of a path the router knows with a method it does not take, and the
/// metric label of a request, both from the routes' declarations.
@Suite struct RouteTableTests {
    static let table: RouteTable = {
        let table = RouteTable()
        let nothing: @Sendable (Request, LedgerRequestContext) async throws -> Response = { _, _ in Response(status: .ok) }
        for (method, path) in [
            (HTTPRequest.Method.get, "v1/coach/invites"), (.post, "v1/coach/invites"), (.post, "v1/coach/invites/accept"),
            (.delete, "v1/coach/invites/:invite"), (.get, "v1/accounts/:account/prs"), (.get, "v1/accounts/:account/prs/**"),
        ] {
            table.add(APIRoute(method, path, .token, nothing))
        }
        return table
    }()

    static func methods(_ path: String) -> [HTTPRequest.Method] {
        table.matching(path.split(separator: "/").map(String.init)).flatMap(\.methods)
    }

    @Test func theMostLiteralRouteWins() {
        #expect(Self.methods("v1/coach/invites/accept") == [.post])
        #expect(Self.methods("v1/coach/invites/8e1c") == [.delete])
        #expect(Self.methods("v1/coach/invites") == [.get, .post])
    }

    @Test func parametersTakeOneSegmentAndTheRestTakesOneOrMore() {
        #expect(Self.methods("v1/accounts/a/prs") == [.get])
        #expect(Self.methods("v1/accounts/a/prs/x/y") == [.get])
        #expect(Self.methods("v1/accounts/prs").isEmpty)
        #expect(Self.methods("v1/coach/invites/a/b").isEmpty)
        #expect(Self.methods("v1/coach").isEmpty)
    }

    @Test func aRequestIsLabelledByItsRoute() {
        func label(_ path: String) -> String? { Self.table.label(path.split(separator: "/").map(String.init)) }
        #expect(label("v1/coach/invites/8e1c") == "/v1/coach/invites/{invite}")
        #expect(label("v1/accounts/a1/prs") == "/v1/accounts/{account}/prs")
        #expect(label("v1/accounts/a1/prs/x/y") == "/v1/accounts/{account}/prs/{}/{}")
        #expect(label("v1/accounts/a1/nothing") == nil)
    }
}

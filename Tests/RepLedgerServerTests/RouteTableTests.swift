import Hummingbird
import Testing

@testable import RepLedgerServer

/// The methods of a routed path, for the 405 of a path the router knows with a method it does not take.
@Suite struct RouteTableTests {
    static let table: RouteTable = {
        let table = RouteTable()
        table.add("v1/coach/invites", [.get, .post])
        table.add("v1/coach/invites/accept", [.post])
        table.add("v1/coach/invites/:invite", [.delete])
        table.add("v1/accounts/:account/prs", [.get])
        table.add("v1/accounts/:account/prs/**", [.get])
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
}

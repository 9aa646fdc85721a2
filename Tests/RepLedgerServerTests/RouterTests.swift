import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import RepLedgerAccounts
import RepLedgerService
import Testing

@testable import RepLedgerServer

/// The router and its middleware on a real loopback port, over an empty
/// server's storage: what no route takes is a 404 or a 405 that says where
/// to look, an account's paths ask for the token first, long targets are
/// refused before any work, and every answer carries the same headers.
@Suite struct RouterTests {
    /// Runs `body` against the routes over a fresh storage with one account (its id and token).
    static func withServer(_ body: @Sendable (any TestClientProtocol, String, String) async throws -> Void) async throws {
        try await InProcessServer.with { server in try await server.live { client in try await body(client, server.account, server.token) } }
    }

    struct Answer {
        let status: Int
        let body: String
        let headers: HTTPFields
    }

    static func ask(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, token: String? = nil
    ) async throws -> Answer {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: path, method: method, headers: headers) { response in
            Answer(status: Int(response.status.code), body: String(buffer: response.body), headers: response.headers)
        }
    }

    @Test func whatNoRouteTakesSaysWhereToLook() async throws {
        try await Self.withServer { client, account, token in
            let outside = try await Self.ask(client, .get, "/nowhere")
            #expect(outside.status == 404 && outside.body.contains("the API is under /v1"))
            let unknown = try await Self.ask(client, .get, "/v1/nowhere")
            #expect(unknown.status == 404 && unknown.body.contains("see /v1/openapi.json"))
            let health = try await Self.ask(client, .post, "/v1/health")
            #expect(health.status == 405 && health.body.contains("POST is not served here; use GET"))
            let events = try await Self.ask(client, .put, "/v1/accounts/\(account)/events", token: token)
            #expect(events.status == 405 && events.body.contains("use GET or POST"))
            let accept = try await Self.ask(client, .delete, "/v1/coach/invites/accept", token: token)
            #expect(accept.status == 405 && accept.body.contains("use POST"), "\(accept.body)")
        }
    }

    @Test func anAccountsPathsAskForTheTokenFirst() async throws {
        try await Self.withServer { client, account, token in
            #expect(try await Self.ask(client, .get, "/v1/accounts/\(account)/nope").status == 401)
            #expect(try await Self.ask(client, .put, "/v1/accounts/\(account)/prs").status == 401)
            let query = try await Self.ask(client, .get, "/v1/accounts/\(account)/nope", token: token)
            #expect(query.status == 404 && query.body.contains("no such query 'nope'"))
            let arity = try await Self.ask(client, .get, "/v1/accounts/\(account)/prs/Bench%20Press", token: token)
            #expect(arity.status == 404 && arity.body.contains("no path after prs"))
            let prs = try await Self.ask(client, .get, "/v1/accounts/\(account)/prs", token: token)
            #expect(prs.status == 200, "\(prs.body)")
        }
    }

    @Test func longTargetsAreRefusedBeforeAnyWork() async throws {
        try await Self.withServer { client, account, token in
            let segment = String(repeating: "a", count: TargetBounds.maximumSegmentBytes + 1)
            let long = try await Self.ask(client, .get, "/v1/accounts/\(account)/hint/\(segment)", token: token)
            #expect(long.status == 414 && long.body.contains("uriTooLong"))
            let value = try await Self.ask(client, .get, "/v1/accounts/\(account)/prs?exercise=\(segment)", token: token)
            #expect(value.status == 400 && value.body.contains("a query parameter takes at most"))
        }
    }

    @Test func everyAnswerCarriesTheSameHeaders() async throws {
        try await Self.withServer { client, account, token in
            for (method, path) in [(HTTPRequest.Method.get, "/v1/health"), (.get, "/nowhere"), (.delete, "/v1/health"), (.get, "/coach")] {
                let answer = try await Self.ask(client, method, path, token: token)
                #expect(answer.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                #expect(answer.headers[.cacheControl] == "no-store", "\(path)")
                #expect(answer.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true, "\(path)")
            }
            let signIn = try await Self.ask(client, .get, "/coach/anything")
            #expect(signIn.status == 303 && signIn.headers[.location] == "/coach/sign-in")
            _ = account
        }
    }
}

import Foundation
import LedgerTestSupport
import Testing

/// The published limits on a real server with small ones: requests and appends per window, per key and
/// per account; every answer says where it stands (`RateLimit-Policy`, `RateLimit`), and the one past
/// a limit is 429 with `Retry-After`, appending nothing. The window is an hour here, so a slow machine
/// cannot see one end mid-test (`RateLimiterTests` holds the windows' ends).
@Suite(.disabled(if: ServerProcess.onPostgres, "the limits are counted in memory, the same over either store")) struct RateLimitTests {
    @Test func eachKeyAndEachAccountIsHeldToItsPublishedLimits() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(
            cli: cli,
            serveFlags: [
                "--key-requests-per-minute", "6", "--account-requests-per-minute", "9", "--key-appends-per-minute", "2",
                "--account-appends-per-minute", "3", "--rate-window", "3600",
            ])
        let alice = try server.createAccount("alice")
        let watch = try server.createToken(alice.id, device: "watch")
        let events = "/v1/accounts/\(alice.id)/events"
        func push(_ token: String) async throws -> ServerProcess.Reply {
            try await server.post(events, token: token, body: PushBodies.batch([PushBodies.started(UUID())]))
        }
        let began = Date()
        let first = try await push(alice.token)
        #expect(first.status == 200)
        #expect(
            first.headers["ratelimit-policy"]
                == #""requests-key";q=6;w=3600, "requests-account";q=9;w=3600, "appends-key";q=2;w=3600, "appends-account";q=3;w=3600"#)
        let standing = first.headers["ratelimit"] ?? ""
        for part in [#""requests-key";r=5;t="#, #""requests-account";r=8;t="#, #""appends-key";r=1;t="#, #""appends-account";r=2;t="#] {
            #expect(standing.contains(part), "\(standing)")
        }
        #expect(try await push(alice.token).status == 200)

        // The key's third append in the minute: refused, nothing appended.
        let refused = try await push(alice.token)
        #expect(refused.status == 429 && refused.errorCode == "tooManyRequests", "\(refused.body)")
        let wait = Int(refused.headers["retry-after"] ?? "") ?? 0
        // What is left of the hour that began with the key's first request, however slowly this machine got here.
        #expect(wait <= 3600 && Double(wait) >= 3600 - Date().timeIntervalSince(began) - 1, "Retry-After \(wait)")
        #expect(refused.body.contains("this key made 2 appends in 3600 s"))
        #expect(refused.headers["ratelimit"]?.contains(#""appends-key";r=0"#) == true)

        // Reads go on until the key's requests are spent (three pushes and three reads make six).
        for _ in 0..<3 { #expect(try await server.get(events, token: alice.token).status == 200) }
        let sixth = try await server.get(events, token: alice.token)
        #expect(sixth.status == 429 && sixth.body.contains("this key made 6 requests"), "\(sixth.body)")

        // Another key of the account has its own key limits but shares the account's.
        #expect(try await push(watch).status == 200)
        let accountAppends = try await push(watch)
        #expect(accountAppends.status == 429 && accountAppends.body.contains("this account (its keys together) made 3 appends"))
        // The account's ninth request: three pushes landed, two of alice's key and one of the watch's.
        let landed = try await server.get(events, token: watch)
        #expect(landed.status == 200)
        #expect((landed.json?["events"] as? [[String: Any]])?.filter { $0["type"] as? String == "WorkoutStarted" }.count == 3)
        let accountRequests = try await server.get(events, token: watch)
        #expect(accountRequests.status == 429 && accountRequests.body.contains("made 9 requests"), "\(accountRequests.body)")
        let bob = try server.createAccount("bob")
        #expect(try await server.get("/v1/accounts/\(bob.id)/verify", token: bob.token).status == 200, "another account is not held back")
    }
}

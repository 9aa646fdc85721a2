import Foundation
import LedgerTestSupport
import Testing

/// The published limits on a real server with small ones: requests and appends a minute, per key and
/// per account; every answer says where it stands (`RateLimit-Policy`, `RateLimit`), and the one past
/// a limit is 429 with `Retry-After`, appending nothing.
@Suite struct RateLimitTests {
    @Test func eachKeyAndEachAccountIsHeldToItsPublishedLimits() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(
            cli: cli,
            serveFlags: [
                "--key-requests-per-minute", "6", "--account-requests-per-minute", "9", "--key-appends-per-minute", "2",
                "--account-appends-per-minute", "3",
            ])
        let alice = try server.createAccount("alice")
        let watch = try server.createToken(alice.id, device: "watch")
        let events = "/v1/accounts/\(alice.id)/events"
        // The limits count in minutes of the clock: start early in one, so the whole test falls within it.
        let deadline = Date().addingTimeInterval(70)
        while Int(Date().timeIntervalSince1970) % 60 > 40, Date() < deadline { try await Task.sleep(for: .milliseconds(200)) }

        func push(_ token: String) async throws -> ServerProcess.Reply {
            try await server.post(events, token: token, body: PushBodies.batch([PushBodies.started(UUID())]))
        }
        let first = try await push(alice.token)
        #expect(first.status == 200)
        #expect(
            first.headers["ratelimit-policy"]
                == #""requests-key";q=6;w=60, "requests-account";q=9;w=60, "appends-key";q=2;w=60, "appends-account";q=3;w=60"#)
        let standing = first.headers["ratelimit"] ?? ""
        for part in [#""requests-key";r=5;t="#, #""requests-account";r=8;t="#, #""appends-key";r=1;t="#, #""appends-account";r=2;t="#] {
            #expect(standing.contains(part), "\(standing)")
        }
        #expect(try await push(alice.token).status == 200)

        // The key's third append in the minute: refused, nothing appended.
        let refused = try await push(alice.token)
        #expect(refused.status == 429 && refused.errorCode == "tooManyRequests", "\(refused.body)")
        let wait = Int(refused.headers["retry-after"] ?? "") ?? 0
        #expect((1...60).contains(wait))
        #expect(refused.body.contains("this key made 2 appends this minute"))
        #expect(refused.headers["ratelimit"]?.contains(#""appends-key";r=0"#) == true)

        // Reads go on until the key's requests are spent (three pushes and three reads make six).
        for _ in 0..<3 { #expect(try await server.get(events, token: alice.token).status == 200) }
        let sixth = try await server.get(events, token: alice.token)
        #expect(sixth.status == 429 && sixth.body.contains("this key made 6 requests"), "\(sixth.body)")

        // Another key of the account has its own key limits but shares the account's.
        #expect(try await push(watch).status == 200)
        let accountAppends = try await push(watch)
        #expect(accountAppends.status == 429 && accountAppends.body.contains("this account (its keys together) made 3 appends"))
        #expect(try await server.get(events, token: watch).status == 200)
        let accountRequests = try await server.get(events, token: watch)
        #expect(accountRequests.status == 429 && accountRequests.body.contains("made 9 requests"), "\(accountRequests.body)")

        // Three pushes landed: two of alice's key, one of the watch's.
        let bob = try server.createAccount("bob")
        #expect(try await server.get("/v1/accounts/\(bob.id)/verify", token: bob.token).status == 200, "another account is not held back")
        let retry = Date().addingTimeInterval(Double(wait + 1))
        while Date() < retry { try await Task.sleep(for: .milliseconds(200)) }
        let after = try await server.get(events, token: alice.token)
        #expect(after.status == 200)
        let starts = (after.json?["events"] as? [[String: Any]])?.filter { $0["type"] as? String == "WorkoutStarted" }.count
        #expect(starts == 3)
    }
}

import Foundation
import LedgerTestSupport
import Testing

/// `DELETE /v1/accounts/{account}`: the account's file, tokens and grants
/// go; other accounts keep working and verifying.
@Suite(.serialized) struct ServerErasureTests {
    @Test func erasingAnAccountByItsOwnToken() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let alice = try server.createAccount("alice")
        let bob = try server.createAccount("bob")
        for (account, name) in [(alice, "a"), (bob, "b")] {
            let d = try Device(name, cli: cli, token: account.token)
            try d.run(["settings", "unit", "kg"])
            #expect(try d.sync(server, account: account.id).status == 0)
        }
        let file = server.data + "/accounts/\(alice.id).sqlite"
        #expect(FileManager.default.fileExists(atPath: file) != ServerProcess.onPostgres)
        #expect(try await server.request(.DELETE, "/v1/accounts/\(alice.id)", token: bob.token).status == 403)
        let erased = try await server.request(.DELETE, "/v1/accounts/\(alice.id)", token: alice.token)
        #expect(erased.status == 200)
        let report = try #require(erased.json)
        #expect(report["accountId"] as? String == alice.id)
        #expect((report["events"] as? Int ?? 0) > 0)
        #expect(report["tokens"] as? Int == 1)
        #expect(report["at"] is String)
        for suffix in ["", "-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: file + suffix)) }
        // Its token hears that its account is gone (410, not a token it might retype); to anyone else its id
        // answers like any unknown account.
        #expect(try await server.get("/v1/accounts/\(alice.id)/events", token: alice.token).errorCode == "erased")
        #expect(try await server.get("/v1/accounts/\(alice.id)/events", token: bob.token).status == 403)
        let other = try await server.get("/v1/accounts/\(bob.id)/verify", token: bob.token)
        #expect(other.json?["ok"] as? Bool == true)
    }
}

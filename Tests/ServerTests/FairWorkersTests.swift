import Foundation
import LedgerTestSupport
import Testing

/// One account's requests in progress take at most its share of the
/// blocking workers (half of them): another account's request finds a
/// worker free however many the first has in progress.
@Suite(.serialized) struct FairWorkersTests {
    @Test func anotherAccountIsAnsweredWhileOneAccountFillsItsRequests() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, serveFlags: ["--max-requests-per-account", "16"])
        // Alice's log is a real export's (33,663 events): each verify walks all of it.
        let alice = try server.createAccount("alice"), bob = try server.createAccount("bob")
        let phone = try Device("alice-phone", cli: cli, token: alice.token)
        let export = RealExportsFolder.url.appendingPathComponent("strong_Andrew50_Lifting_aj.csv").path
        #expect(try phone.run(["import", "strong", export, "--unit", "lb"]).status == 0)
        #expect(try phone.sync(server, account: alice.id).status == 0)

        // Sixteen verifies of alice's, each on its own connection.
        func ask(_ account: ServerProcess.Account) throws -> RawSocket {
            let socket = try RawSocket(port: server.port)
            socket.send("GET /v1/accounts/\(account.id)/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(account.token)\r\n\r\n")
            return socket
        }
        let alices = try (0..<16).map { _ in try ask(alice) }
        // Then bob's, small. Before, it queued behind most of them (both workers taken by alice's); now alice's
        // share is one worker, so it waits for the one of hers that is running at most.
        let bobs = try ask(bob).read(for: 120, until: RawSocket.wholeResponse).text
        let answeredBeforeBob = alices.filter(\.hasAnswer).count
        #expect(bobs.hasPrefix("HTTP/1.1 200"), "\(bobs.prefix(100))")
        #expect(answeredBeforeBob <= 4, "bob waited for \(answeredBeforeBob) of alice's 16 requests")
        for socket in alices {
            #expect(socket.read(for: 120, until: RawSocket.wholeResponse).text.hasPrefix("HTTP/1.1 200"))
        }
    }
}

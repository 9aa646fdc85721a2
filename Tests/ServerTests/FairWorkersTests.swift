import Foundation
import LedgerTestSupport
import Testing

/// One account's requests in progress take at most its share of the
/// blocking workers (half of them): another account's request finds a
/// worker free however many the first has in progress.
@Suite(.serialized, .needsSharedData(.realExportsMore)) struct FairWorkersTests {
    @Test func anotherAccountIsAnsweredWhileOneAccountFillsItsRequests() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, serveFlags: ["--max-requests-per-account", "16"])
        let alice = try server.createAccount("alice"), bob = try server.createAccount("bob")
        // Alice's log is a real export's (about 7,000 events): each verify walks all of it, a second or two,
        // long beside a request of bob's and short enough that sixteen stay cheap on a loaded machine.
        let phone = try Device("alice-phone", cli: cli, token: alice.token)
        let export = SharedData.url(.realExportsMore).appendingPathComponent("strong_dstanek_lifting.csv").path
        // The file holds a typed 877777 reps, which the import leaves out only when asked.
        #expect(try phone.run(["import", "strong", export, "--skip-unreadable"]).status == 0)
        #expect(try phone.sync(server, account: alice.id).status == 0)

        // Sixteen verifies of alice's, each on its own connection.
        func ask(_ account: ServerProcess.Account) throws -> RawSocket {
            let socket = try RawSocket(port: server.port)
            socket.send("GET /v1/accounts/\(account.id)/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(account.token)\r\n\r\n")
            return socket
        }
        let alices = try (0..<16).map { _ in try ask(alice) }
        // Then bob's, small. Before, it queued behind most of them (both workers taken by alice's); now alice's
        // share is one worker, so it waits for the one of hers that is running at most. The reads block, so they
        // wait on a thread of their own, leaving the test pool's few threads to the tests beside this one.
        // Alice's answers are counted the moment bob's arrives, on that thread: back in a busy pool it may be later.
        let bobsSocket = try ask(bob)
        let (bobs, answeredBeforeBob) = try await onOwnThread {
            (bobsSocket.read(for: 600, until: RawSocket.wholeResponse).text, alices.filter(\.hasAnswer).count)
        }
        #expect(bobs.hasPrefix("HTTP/1.1 200"), "\(bobs.prefix(100))")
        #expect(answeredBeforeBob <= 4, "bob waited for \(answeredBeforeBob) of alice's 16 requests")
        // Every one of alice's is answered in the end: one deadline for all, generous for a loaded machine.
        let answers = try await onOwnThread {
            let deadline = Date().addingTimeInterval(600)
            return alices.map { $0.read(for: max(1, deadline.timeIntervalSinceNow), until: RawSocket.wholeResponse).text }
        }
        for (n, answer) in answers.enumerated() {
            #expect(answer.hasPrefix("HTTP/1.1 200"), "alice's verify \(n + 1) of 16: \(answer.prefix(100))")
        }
    }
}

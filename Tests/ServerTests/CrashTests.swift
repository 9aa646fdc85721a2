import Foundation
import LedgerTestSupport
import Testing

/// kill -9 of the client and of the server in the middle of a sync: the next
/// sync converges, nothing lost, nothing doubled (SERVER-CONTRACT.md §5).
@Suite(.serialized) struct CrashTests {
    /// A device with a demo history (about 1,800 pending events: four pushes of at most 500).
    static func demoDevice(_ cli: LedgerProcess, _ account: ServerProcess.Account) throws -> Device {
        let d = try Device("phone", cli: cli, token: account.token)
        try d.run(["demo", "--json"])
        return d
    }

    static func startSync(_ d: Device, _ server: ServerProcess, _ account: ServerProcess.Account) throws -> Process {
        let p = Process()
        p.executableURL = LedgerProcess.binary
        p.arguments = ["sync", server.base, "--account", account.id, "--token-file", d.tokenFile, "--db", d.db, "--json"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// The device's log equals the server's, and holds each of the demo's events once.
    static func expectConverged(
        _ d: Device, _ server: ServerProcess, _ account: ServerProcess.Account, events: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        // The same command again (a kill before the first sync saved its target leaves nothing to remember).
        let out = try d.sync(server, account: account.id)
        #expect(out.status == 0, "\(out.stderr)", sourceLocation: sourceLocation)
        let lines = d.log.split(separator: "\n")
        #expect(lines.count == events, sourceLocation: sourceLocation)
        let served = try await server.get("/v1/accounts/\(account.id)/events?limit=10000", token: account.token)
        #expect(served.body.hasPrefix(#"{"events":["# + lines.joined(separator: ",") + "]"), sourceLocation: sourceLocation)
        #expect(try d.run(["verify", "--json"]).json?["ok"] as? Bool == true, sourceLocation: sourceLocation)
        let ids = lines.compactMap { line in line.range(of: #""eventId":"[^"]+""#, options: .regularExpression).map { String(line[$0]) } }
        #expect(Set(ids).count == events, "each event once", sourceLocation: sourceLocation)
    }

    /// A server, an account, a device with the demo pending, and a sync in
    /// flight that `interrupt` kills once the server has answered `pushes`
    /// pushes (or the sync has ended); then the device syncs again. The sync
    /// client sends its next batch as soon as one is answered, so the kill
    /// falls while a batch is on its way.
    static func interruptedSync(
        afterPushes pushes: Int, interrupt: (Process, ServerProcess) throws -> Void,
        then check: (LedgerProcess, ServerProcess, ServerProcess.Account, Device) async throws -> Void
    ) async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let account = try server.createAccount("lifter")
        let d = try Self.demoDevice(cli, account)
        let events = d.log.split(separator: "\n").count
        let sync = try Self.startSync(d, server, account)
        let answered = "POST /v1/accounts/\(account.id.prefix(8))…/events 200"  // the log shows an id by its first 8 characters
        let deadline = Date().addingTimeInterval(120)
        while sync.isRunning, server.log.components(separatedBy: answered).count - 1 < pushes, Date() < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        try interrupt(sync, server)
        try await Self.expectConverged(d, server, account, events: events)
        try await check(cli, server, account, d)
    }

    @Test(arguments: [0, 1, 2, 3])
    func theClientKilledMidSync(afterPushes pushes: Int) async throws {
        try await Self.interruptedSync(
            afterPushes: pushes,
            interrupt: { sync, _ in
                kill(sync.processIdentifier, SIGKILL)
                sync.waitUntilExit()
            },
            then: { _, _, _, d in
                let verified = try d.run(["verify", "--json"]).json?["ok"] as? Bool
                #expect(verified == true)
            })
    }

    @Test(arguments: [1, 2, 3])
    func theServerKilledMidSync(afterPushes pushes: Int) async throws {
        try await Self.interruptedSync(
            afterPushes: pushes,
            interrupt: { sync, server in
                server.kill()
                sync.waitUntilExit()
                try server.start()
            },
            then: { cli, server, account, d in
                // A second device pulls the same log.
                let laptop = try Device("laptop", cli: cli, token: try server.createToken(account.id, device: "laptop"))
                #expect(try laptop.sync(server, account: account.id).status == 0)
                #expect(laptop.log == d.log)
            })
    }
}

import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import Logging
import RepLedgerCore
import RepLedgerSQLite
import RepLedgerServer
import RepLedgerService
import Testing

@testable import RepLedgerSync

/// The sync client against a real server in this process, on a free loopback
/// port: a device's pending events pushed, another device pulling the same
/// log, and the server's refusals read from its error documents.
@Suite(.serialized) struct SyncClientTests {
    /// A server on port 0 with one account → its base URL, the account, a token, and how to stop it.
    final class InProcessServer: @unchecked Sendable {
        let folder: URL
        let base: String
        let account: String
        let task: Task<Void, any Error>

        init() async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-sync-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var settings = LedgerServer.Settings(host: "127.0.0.1", port: 0, dataDirectory: folder.appendingPathComponent("data").path)
            settings.keepAliveSeconds = 1
            let logger = Logger(label: "sync-tests") { _ in SwiftLogNoOpLogHandler() }
            let storage = try settings.storage(logger: logger, provisioning: true)
            account = try LedgerAPI(storage: storage).accounts.createAccount(name: "lifter", coach: false).accountId
            storage.shutdown()
            let listening = AsyncStream<Int>.makeStream()
            task = Task { try await LedgerServer.run(settings, logger: logger) { port in listening.continuation.yield(port) } }
            var port = 0
            for await p in listening.stream {
                port = p
                break
            }
            base = "http://127.0.0.1:\(port)"
        }

        /// A token for a device of the account, in a file as `ledger sync` reads it.
        func tokenFile(device: String) throws -> String {
            let settings = LedgerServer.Settings(dataDirectory: folder.appendingPathComponent("data").path)
            let storage = try settings.storage(logger: Logger(label: "sync-tests") { _ in SwiftLogNoOpLogHandler() })
            defer { storage.shutdown() }
            let token = try LedgerAPI(storage: storage).accounts.createToken(account: account, device: device)
            let path = folder.appendingPathComponent("\(device).token").path
            try token.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        func stop() async {
            task.cancel()
            _ = try? await task.value
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static func sync(_ ledger: TempLedger, _ server: InProcessServer, tokenFile: String) async throws -> SyncClient.Outcome {
        try ledger.store.saveSyncTarget(remote: server.base + "/", account: server.account, tokenFile: tokenFile)
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: SyncClient.httpConfiguration)
        do {
            let outcome = try await SyncClient(store: ledger.store, client: http).run()
            try await http.shutdown()
            return outcome
        } catch {
            try await http.shutdown()
            throw error
        }
    }

    @Test func aDevicesEventsReachAnotherDeviceInTheSameOrder() async throws {
        let server = try await InProcessServer()
        let phone = try TempLedger.demo(), laptop = try TempLedger(seeded: false)
        let events = try phone.count()
        let pushed = try await Self.sync(phone, server, tokenFile: try server.tokenFile(device: "phone"))
        #expect(pushed.pushed == Int(events) && pushed.rejected == 0)
        let pulled = try await Self.sync(laptop, server, tokenFile: try server.tokenFile(device: "laptop"))
        #expect(pulled.pulled == Int(events))
        #expect(pulled.headHash == pushed.headHash && pulled.headPosition == events)
        var phoneIds: [UUID] = [], laptopIds: [UUID] = []
        try phone.store.read(EventQuery()) { phoneIds.append($0.eventId) }
        try laptop.store.read(EventQuery()) { laptopIds.append($0.eventId) }
        #expect(phoneIds == laptopIds)
        // Nothing new on either side: a second sync moves nothing.
        let again = try await Self.sync(phone, server, tokenFile: try server.tokenFile(device: "phone"))
        #expect(again.pushed == 0 && again.pulled == 0)
        await server.stop()
    }

    /// The kit keeps one `Ledger` between commands, and a sync rebases the log beneath it: the
    /// device's pending set moves after the set it pulled. The next command decides on the log as
    /// it is now (the simulation's first finding: it was refused as a concurrent write).
    @Test func aLedgerKeptAcrossASyncDecidesOnTheRebasedLog() async throws {
        let server = try await InProcessServer()
        let phone = try TempLedger(), laptop = try TempLedger()
        phone.ledger.device = "phone"
        laptop.ledger.device = "laptop"
        laptop.ledger.ids = .seeded(43)
        let phoneToken = try server.tokenFile(device: "phone"), laptopToken = try server.tokenFile(device: "laptop")
        let metrics = SetMetrics(weight: Weight(100, .kg), reps: 5)
        let workout = try phone.ledger.execute { try $0.startWorkout(name: "Push") }
        _ = try await Self.sync(phone, server, tokenFile: phoneToken)
        _ = try await Self.sync(laptop, server, tokenFile: laptopToken)
        try laptop.ledger.execute { _ = try $0.logSet(workout, exercise: "Bench Press", metrics: metrics) }
        _ = try await Self.sync(laptop, server, tokenFile: laptopToken)
        // Two sets here: the second command folds the first into the kept state, then the sync moves both.
        try phone.ledger.execute { _ = try $0.logSet(workout, exercise: "Squat", metrics: metrics) }
        try phone.ledger.execute { _ = try $0.logSet(workout, exercise: "Barbell Row", metrics: metrics) }
        let synced = try await Self.sync(phone, server, tokenFile: phoneToken)
        #expect(synced.pulled == 2 && synced.pushed == 4)  // each set with its exercise entry
        try phone.ledger.execute { _ = try $0.logSet(workout, exercise: "Deadlift", metrics: metrics) }
        let sets = try phone.ledger.workout(workout).sets
        #expect(sets.count == 4)
        let fresh = try Ledger(store: phone.store).workout(workout)
        #expect(fresh.sets.map(\.setId) == sets.map(\.setId))
        await server.stop()
    }

    @Test func aRefusedTokenIsTheServersOwnWords() async throws {
        let server = try await InProcessServer()
        let phone = try TempLedger.demo()
        let file = server.folder.appendingPathComponent("bad.token").path
        try "rl_not-a-token".write(toFile: file, atomically: true, encoding: .utf8)
        do {
            _ = try await Self.sync(phone, server, tokenFile: file)
            Issue.record("a sync with a wrong token succeeded")
        } catch let failure as SyncClient.Failure {
            guard case .refused(let status, let code, _) = failure else {
                Issue.record("\(failure)")
                await server.stop()
                return
            }
            #expect(status == 401 && code == "unauthorized")
        }
        await server.stop()
    }

    @Test func aDeviceWithoutATargetOrTokenSaysWhatIsMissing() throws {
        let phone = try TempLedger()
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { try? http.syncShutdown() }
        #expect(throws: SyncClient.Failure.self) { try SyncClient(store: phone.store, client: http) }
        try phone.store.saveSyncTarget(remote: "http://127.0.0.1:9", account: "a", tokenFile: phone.folder.appendingPathComponent("none").path)
        do {
            _ = try SyncClient(store: phone.store, client: http)
            Issue.record("a missing token file was accepted")
        } catch let failure as SyncClient.Failure {
            #expect("\(failure)".hasPrefix("cannot read the token file"))
        }
    }

    @Test func anErrorDocumentIsReadAndAProxysPageIsNot() throws {
        let document = try JSONReader.parse(#"{"error":{"code":"storage","message":"try again later"}}"#)
        #expect(SyncClient.codeAndMessage(document["error"], otherwise: "HTTP 503") == ("storage", "try again later"))
        let page = try? JSONReader.parse("<html>Bad gateway</html>")
        #expect(SyncClient.codeAndMessage(page?["error"], otherwise: "HTTP 502") == ("unknown", "HTTP 502"))
    }

    @Test func aPushBodyCarriesEachPendingEventAsStored() throws {
        let phone = try TempLedger.demo()
        var stored: [EventEnvelope] = []
        try phone.store.read(EventQuery(from: 1, through: 50)) { stored.append($0) }
        let batch = try PushBatch(json: SyncClient.body(stored), device: "phone")
        #expect(batch.events.map(\.eventId) == stored.map(\.eventId))
        #expect(batch.events.map(\.event.encodedPayload) == stored.map { ProposedEvent($0).event.encodedPayload })
    }
}

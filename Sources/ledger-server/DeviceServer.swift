import ArgumentParser
import AsyncHTTPClient
import Foundation
import LedgerShell
import NIOHTTP1
import RepLedgerCore
import RepLedgerSQLite
import RepLedgerSnapshots
import RepLedgerSync

/// The server this device's ledger syncs with (`ledger sync` set it up), for
/// the commands that ask it something: a coach's invites, a client's offers.
/// Requests go with the device's own token, as a sync's do.
final class DeviceServer {
    let store: SQLiteEventStore
    let http: HTTPClient
    let client: SyncClient

    init(_ global: GlobalOptions) throws {
        store = try global.openStore()
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: SyncClient.httpConfiguration)
        do {
            client = try SyncClient(store: store, client: http)
        } catch {
            try? http.syncShutdown()
            throw error
        }
    }

    deinit { try? http.syncShutdown() }

    var accountId: String { client.accountId }

    /// One request → its JSON answer (a refusal throws with the server's words).
    func call(_ method: HTTPMethod, _ path: String, body: String? = nil) throws -> JSONValue {
        final class Box: @unchecked Sendable { var answer: JSONValue = .null }
        let box = Box()
        let client = self.client
        do {
            try blockingRun { box.answer = try await client.call(method, path, body: body) }
        } catch let failure as SyncClient.Failure {
            // The server said no (a used code, an offer to someone else): a refusal, exit 1, in the server's words.
            guard case .refused(let status, _, _) = failure, status < 500 else { throw failure }
            Console.error("error: \(failure)")
            throw ExitCode(ExitStatus.refused)
        }
        return box.answer
    }

    /// A sync, as `ledger sync` runs one (snapshots by the same policy afterwards).
    @discardableResult
    func sync() throws -> SyncClient.Outcome {
        final class Box: @unchecked Sendable { var outcome = SyncClient.Outcome() }
        let box = Box()
        let client = self.client
        try blockingRun { box.outcome = try await client.run() }
        if box.outcome.pulled > 0 || box.outcome.pushed > 0 { try SnapshotPolicy.apply(store) }
        return box.outcome
    }
}

extension JSONValue {
    /// The string of a key of an object, if it is one.
    func string(_ key: String) -> String? {
        if case .string(let s)? = self[key] { return s }
        return nil
    }
}

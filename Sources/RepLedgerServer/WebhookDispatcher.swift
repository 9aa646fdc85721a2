import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerService
import ServiceLifecycle

/// Delivers every webhook's events, apart from the appends (which never wait for it): each hook's
/// deliveries are read from its account's log after the hook's cursor, posted signed, and the
/// cursor moves only past what the receiver acknowledged (2xx). A failed delivery is tried again,
/// first after a second, then twice as long each time up to five minutes, in the log's order; every
/// attempt is written to the hook's delivery log. A restart resumes from the cursors, so a delivery
/// is never lost; one acknowledged as the server stopped may come again (at least once: receivers
/// keep the `RepLedger-Delivery` ids they have seen).
///
/// Each account's hooks are delivered by a task of the account's own, up to `concurrentAccounts` at
/// once, so a receiver that is down or slow holds up only its own account's deliveries; and only
/// the status and the first `answerBytes` of an answer are read, however much a receiver sends.
struct WebhookDispatcher: Service {
    let api: LedgerAPI
    let workers: NIOThreadPool
    let logger: Logger
    /// How often hooks are looked at when nothing woke the dispatcher.
    var interval: Duration = .milliseconds(500)

    static let maximumBackoffSeconds = 300.0
    static let timeout: TimeAmount = .seconds(10)
    /// Accounts whose deliveries are in flight at once.
    static let concurrentAccounts = 32
    /// The most of a receiver's answer read (its body is not used: the status says it all).
    static let answerBytes = 4096

    func run() async throws {
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(redirectConfiguration: .disallow, timeout: .init(connect: Self.timeout, read: Self.timeout)))
        let state = DeliveryState()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                while !Task.isCancelled {
                    await schedule(client, state, &group)
                    try? await Task.sleep(for: interval)
                }
                group.cancelAll()
            }
        }
        try? await client.shutdown()
    }

    /// One look at every hook: each account with hooks and no delivery in flight gets a task of its own.
    func schedule(_ client: HTTPClient, _ state: DeliveryState, _ group: inout DiscardingTaskGroup) async {
        let table = api.accounts.table
        guard let hooks = try? await blocking({ try table.webhooks(of: nil) }) else { return }
        for (account, hooks) in Dictionary(grouping: hooks, by: \.accountId).sorted(by: { $0.key < $1.key })
        where state.begin(account, limit: Self.concurrentAccounts) {
            group.addTask {
                await deliver(client, hooks, state)
                state.end(account)
            }
        }
    }

    /// One account's hooks, one after another: what is due is delivered, until a delivery fails.
    func deliver(_ client: HTTPClient, _ hooks: [StoredWebhook], _ state: DeliveryState) async {
        let table = api.accounts.table
        for hook in hooks {
            if let wait = state.retry(hook.hookId), wait.at > Date() { continue }
            let api = self.api
            let due: (deliveries: [Webhooks.Delivery], through: Int64, secret: String)
            do {
                due = try await blocking {
                    let found = try api.logs.log(hook.accountId).withLedger { try Webhooks.due(hook, store: $0.store) }
                    return (found.deliveries, found.through, try Webhooks(accounts: api.accounts).secret(of: hook))
                }
            } catch {
                logger.warning("webhook \(hook.hookId): its account's log could not be read: \(error)")
                continue
            }
            var done = hook.cursor, failed = false
            for (i, delivery) in due.deliveries.enumerated() {
                let attempt = (state.retry(hook.hookId)?.attempt ?? 0) + 1
                let (status, error) = await post(client, hook, delivery, secret: due.secret)
                let record = WebhookAttempt(
                    hookId: hook.hookId, deliveryId: delivery.deliveryId, position: delivery.position, type: delivery.type, attempt: attempt,
                    status: status, error: error, at: Timestamp.now().millis)
                _ = try? await blocking { try table.insertAttempt(record) }
                guard record.delivered else {
                    let delay = min(Self.maximumBackoffSeconds, pow(2, Double(attempt - 1)))
                    state.setRetry(hook.hookId, (Date().addingTimeInterval(delay), attempt))
                    logger.notice(
                        "webhook \(hook.hookId): delivery \(delivery.deliveryId) failed (\(error ?? "HTTP \(status)")); next try in \(Int(delay)) s")
                    failed = true
                    break
                }
                state.setRetry(hook.hookId, nil)
                // Past a position only when every delivery of it was acknowledged.
                let next = i + 1 < due.deliveries.count ? due.deliveries[i + 1].position : nil
                if next != delivery.position { done = delivery.position }
                if done > hook.cursor { _ = try? await blocking { [done] in try table.advanceWebhook(hook.hookId, to: done) } }
            }
            if !failed, due.through > done { _ = try? await blocking { try table.advanceWebhook(hook.hookId, to: due.through) } }
        }
    }

    /// Posts one delivery → the receiver's status (0 when none came) and what went wrong, if anything.
    /// At most `answerBytes` of the answer are read; the connection is dropped with the rest.
    func post(_ client: HTTPClient, _ hook: StoredWebhook, _ delivery: Webhooks.Delivery, secret: String) async -> (Int, String?) {
        do {
            var request = HTTPClientRequest(url: hook.url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "User-Agent", value: "RepLedger-Webhooks/\(RepLedgerVersion.current)")
            request.headers.add(name: "RepLedger-Delivery", value: delivery.deliveryId)
            request.headers.add(name: "RepLedger-Event", value: delivery.type)
            request.headers.add(
                name: "RepLedger-Signature",
                value: Webhooks.signature(secret: secret, timestamp: Int64(Date().timeIntervalSince1970), body: delivery.body))
            request.body = .bytes(ByteBuffer(string: delivery.body))
            let response = try await client.execute(request, timeout: .seconds(Int64(Self.timeout.nanoseconds / 1_000_000_000)))
            var read = 0
            for try await chunk in response.body {
                read += chunk.readableBytes
                if read >= Self.answerBytes { break }
            }
            let status = Int(response.status.code)
            return (status, (200..<300).contains(status) ? nil : "HTTP \(status)")
        } catch {
            return (0, "\(error)".prefix(200).description)
        }
    }

    private func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await workers.runIfActive(body)
    }
}

/// What the dispatcher's account tasks share: which accounts have a delivery in flight, and when
/// each failing hook is tried next with how many attempts its delivery has had.
final class DeliveryState: @unchecked Sendable {
    private let lock = NSLock()
    private var inFlight: Set<String> = []
    private var retries: [String: (at: Date, attempt: Int)] = [:]

    /// Claims the account for a task → false when it has one already, or `limit` accounts do.
    func begin(_ account: String, limit: Int) -> Bool {
        lock.withLock {
            guard !inFlight.contains(account), inFlight.count < limit else { return false }
            inFlight.insert(account)
            return true
        }
    }

    func end(_ account: String) { _ = lock.withLock { inFlight.remove(account) } }

    func retry(_ hook: String) -> (at: Date, attempt: Int)? { lock.withLock { retries[hook] } }

    func setRetry(_ hook: String, _ value: (at: Date, attempt: Int)?) { lock.withLock { retries[hook] = value } }
}

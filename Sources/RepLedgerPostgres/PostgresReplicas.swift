import Foundation
import PostgresNIO
import RepLedgerCore

/// Hot standbys that serve reads (`ledger serve --postgres-read URL…`):
/// catch-up pulls, live streams and queries read an account's events from
/// a replica, while appends, heads and everything a push decides stay on
/// the primary.
///
/// Read-your-writes: a range is read from a replica only once that replica
/// has replayed the account's head as the primary holds it when the read
/// starts (its `heads` row, written in the same transaction as the events).
/// A device that has just pushed therefore never reads an older head; a
/// replica that lags longer than `patience`, or fails, leaves the read to
/// the primary.
public final class PostgresReplicas: @unchecked Sendable {
    let pools: [PostgresPool]
    /// How long a read waits for a lagging replica before the primary serves it.
    let patience: TimeInterval
    /// How long a replica that failed is passed over.
    static let pause: TimeInterval = 5
    private var next = 0
    private var downUntil: [Date]
    private var counts = (replica: 0, primary: 0)
    private let lock = NSLock()

    /// Each URL is one replica (a standby, or any host that answers).
    public init(urls: [String], password: String? = nil, maximumConnections: Int = 8, patience: TimeInterval = 0.5) throws {
        pools = try urls.map {
            try PostgresPool(location: try PostgresLocation(url: $0, target: .any, password: password), maximumConnections: maximumConnections)
        }
        self.patience = patience
        downUntil = Array(repeating: .distantPast, count: pools.count)
    }

    /// Reads served by a replica, and reads a replica could not serve in time (or failed) that the primary served.
    public var reads: (replica: Int, primary: Int) {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }

    /// Connections work as the primary's do (the app role, after
    /// `PostgresSchema.prepare`): a standby holds the same roles.
    public func work(like primary: PostgresPool) { for pool in pools { pool.workingRole = primary.workingRole } }

    /// A replica whose copy of `account` has reached `position`, waiting up to
    /// `patience` for one to replay that far; nil when the primary must read.
    func pool(for account: UUID, reaching position: Int64) -> PostgresPool? {
        let deadline = Date().addingTimeInterval(patience)
        while true {
            let order = candidates()
            for pool in order {
                do {
                    let head = try pool.withConnection { c in
                        try pool.run(c, "SELECT position FROM heads WHERE account_id = \(account)").rows.first?.decode(Int64.self) ?? 0
                    }
                    if head >= position {
                        count(replica: true)
                        return pool
                    }
                } catch {
                    failed(pool)
                }
            }
            if Date() >= deadline || order.isEmpty {
                count(replica: false)
                return nil
            }
            usleep(2_000)
        }
    }

    /// A replica's read failed part-way (it went away, or a query was cancelled
    /// by a recovery conflict): pass it over for a while.
    func failed(_ pool: PostgresPool) {
        lock.lock()
        if let i = pools.firstIndex(where: { $0 === pool }) { downUntil[i] = Date().addingTimeInterval(Self.pause) }
        lock.unlock()
    }

    /// The replicas not passed over, starting with the next in turn (reads spread across them).
    private func candidates() -> [PostgresPool] {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        let start = next
        next = (next + 1) % max(1, pools.count)
        return (0..<pools.count).map { (start + $0) % pools.count }.filter { downUntil[$0] <= now }.map { pools[$0] }
    }

    private func count(replica: Bool) {
        lock.lock()
        if replica { counts.replica += 1 } else { counts.primary += 1 }
        lock.unlock()
    }

    public func shutdown() { for pool in pools { pool.shutdown() } }
}

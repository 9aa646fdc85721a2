/// Store transactions as the `account` stream records them (DOMAIN.md §10).
public struct EntitlementState: Sendable, Equatable {
    public struct Transaction: Sendable, Equatable {
        public var transactionId: String
        public var originalTransactionId: String
        public var product: Product
        public var purchasedAt: Timestamp
        public var expiresAt: Timestamp
        /// When a refund or revocation took it away (the earlier, if both).
        public var endedAt: Timestamp?

        /// purchase ≤ T < expiry, and not refunded or revoked at or before T.
        public func isActive(at t: Timestamp) -> Bool {
            purchasedAt <= t && t < expiresAt && !(endedAt.map { $0 <= t } ?? false)
        }
    }

    public internal(set) var transactions: [String: Transaction] = [:]
    /// Transaction ids in the order they were first recorded.
    public internal(set) var order: [String] = []
    public internal(set) var upsellDismissedAt: Timestamp?
    /// The store's signed proof of each transaction that came with one (StoreKit 2's JWS), by transaction id.
    public internal(set) var receipts: [String: String] = [:]
    /// Coach granted by a self-hosted server's operator, in the order recorded.
    public internal(set) var operatorGrants: [OperatorGrant] = []

    /// Coach from a server's operator: in force from `from` until `until` (exclusive).
    public struct OperatorGrant: Sendable, Equatable {
        public var from: Timestamp
        public var until: Timestamp
        public func isActive(at t: Timestamp) -> Bool { from <= t && t < until }
    }

    public init() {}

    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp) {
        switch event {
        case .purchaseRecorded(let e):
            // A restore replays known transactions: the first record stands.
            guard transactions[e.transactionId] == nil else { return }
            transactions[e.transactionId] = Transaction(
                transactionId: e.transactionId, originalTransactionId: e.originalTransactionId, product: e.product,
                purchasedAt: e.purchasedAt, expiresAt: e.expiresAt, endedAt: nil)
            order.append(e.transactionId)
        case .purchaseRefunded(let e): end(e.transactionId, at: e.refundedAt)
        case .purchaseRevoked(let e): end(e.transactionId, at: e.revokedAt)
        case .upsellDismissed: if upsellDismissedAt == nil { upsellDismissedAt = time }
        // The first receipt of a transaction stands, like its first record.
        case .purchaseReceiptAttached(let e): if receipts[e.transactionId] == nil { receipts[e.transactionId] = e.signedTransaction }
        case .operatorCoachGranted(let e): operatorGrants.append(OperatorGrant(from: time, until: e.until))
        default: break
        }
    }

    private mutating func end(_ id: String, at t: Timestamp) {
        guard var tx = transactions[id] else { return }
        tx.endedAt = min(tx.endedAt ?? t, t)
        transactions[id] = tx
    }

    /// Products active at T, in catalog order, each once.
    public func activeProducts(at t: Timestamp) -> [Product] {
        let active = Set(transactions.values.filter { $0.isActive(at: t) }.map(\.product))
        return Product.allCases.filter(active.contains)
    }

    /// The operator's grant in force at T that lasts longest, if any.
    public func operatorGrant(at t: Timestamp) -> OperatorGrant? {
        operatorGrants.filter { $0.isActive(at: t) }.max { $0.until < $1.until }
    }

    /// A Pro or Coach product is active, or an operator's Coach grant (Coach includes Pro).
    public func isPro(at t: Timestamp) -> Bool { !activeProducts(at: t).isEmpty || operatorGrant(at: t) != nil }
    public func isCoach(at t: Timestamp) -> Bool { activeProducts(at: t).contains { $0.grantsCoach } || operatorGrant(at: t) != nil }

    /// Free allows 3 live templates; Pro is unlimited (nil).
    public static let freeTemplateLimit = 3
    public func templateLimit(at t: Timestamp) -> Int? { isPro(at: t) ? nil : Self.freeTemplateLimit }
}

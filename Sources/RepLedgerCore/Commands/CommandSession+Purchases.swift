/// Purchases, refunds and the upsell (DOMAIN.md §10).
extension CommandSession {
    /// Records a store transaction. A transaction id already in the log
    /// (a restore) records nothing and is not an error.
    /// Records a store transaction → false when the transaction is in the ledger already (a restore), which records nothing.
    @discardableResult
    public mutating func recordPurchase(
        product: Product, transactionId: String, originalTransactionId: String? = nil,
        purchasedAt: Timestamp, expiresAt: Timestamp
    ) throws(Refusal) -> Bool {
        let id = transactionId.trimmingSpaces()
        guard !id.isEmpty else { throw .invalidPurchase(reason: "give the store's transaction id") }
        guard purchasedAt < expiresAt else { throw .invalidPurchase(reason: "the expiry must be after the purchase time") }
        guard account.entitlements.transactions[id] == nil else { return false }
        var e = PurchaseRecorded()
        e.transactionId = id
        e.originalTransactionId = originalTransactionId?.trimmingSpaces() ?? id
        e.product = product
        e.purchasedAt = purchasedAt
        e.expiresAt = expiresAt
        emit([.purchaseRecorded(e)])
        return true
    }

    /// Keeps the store's signed proof of a recorded transaction (StoreKit 2's
    /// JWS) → false when one is kept already. Only its shape is checked here:
    /// a device cannot verify it offline; a server does.
    @discardableResult
    public mutating func attachReceipt(transactionId: String, signedTransaction: String) throws(Refusal) -> Bool {
        let jws = signedTransaction.trimmingSpaces()
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        let base64url = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(base64url.contains) }), jws.count <= 64 * 1024 else {
            throw .invalidPurchase(reason: "the signed transaction is not a JWS (three base64url parts joined by dots)")
        }
        guard account.entitlements.transactions[transactionId] != nil else { throw .unknownTransaction(transactionId) }
        guard account.entitlements.receipts[transactionId] == nil else { return false }
        var e = PurchaseReceiptAttached()
        e.transactionId = transactionId
        e.signedTransaction = jws
        emit([.purchaseReceiptAttached(e)])
        return true
    }

    /// A refund ends the transaction at `at`. Refunding it again records nothing.
    public mutating func refund(transactionId: String, at: Timestamp) throws(Refusal) {
        guard let tx = account.entitlements.transactions[transactionId] else { throw .unknownTransaction(transactionId) }
        guard tx.endedAt == nil else { return }
        var e = PurchaseRefunded()
        e.transactionId = transactionId
        e.refundedAt = at
        emit([.purchaseRefunded(e)])
    }

    public mutating func revoke(transactionId: String, at: Timestamp, reason: String) throws(Refusal) {
        guard let tx = account.entitlements.transactions[transactionId] else { throw .unknownTransaction(transactionId) }
        guard tx.endedAt == nil else { return }
        var e = PurchaseRevoked()
        e.transactionId = transactionId
        e.revokedAt = at
        e.reason = reason
        emit([.purchaseRevoked(e)])
    }

    /// Dismissing twice records it once.
    public mutating func dismissUpsell() {
        guard account.entitlements.upsellDismissedAt == nil else { return }
        emit([.upsellDismissed(UpsellDismissed())])
    }
}

extension CommandSession {
    /// `ledger server account grant-coach ACCOUNT --until DATE`: a self-hosted
    /// server's operator grants Coach from now until `until` (exclusive), no
    /// store involved. Refused for an end not after now, or when a grant in
    /// force already lasts as long.
    public mutating func grantCoachAsOperator(until: Timestamp) throws(Refusal) {
        guard until > context.occurredAt else { throw .grantEndsBeforeNow(until: until) }
        if let current = account.entitlements.operatorGrant(at: context.occurredAt), current.until >= until { throw .nothingToChange }
        var e = OperatorCoachGranted()
        e.until = until
        emit([.operatorCoachGranted(e)])
    }
}

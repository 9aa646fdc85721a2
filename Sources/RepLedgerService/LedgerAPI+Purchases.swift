import Foundation
import RepLedgerCore

/// The store's signed transactions on a server that checks them: each is
/// verified once, when it is pushed, and a purchase opens one account only.
extension LedgerAPI {
    /// Receipts one account's log may hold: a monthly subscription renewed for decades, with room to spare.
    public static let maximumReceiptsPerAccount = 1_000

    /// On a server that checks receipts, each receipt a push adds must verify
    /// (422 `receiptRefused` otherwise), be the proof of the transaction it is
    /// attached to and of no other account (StoreKit's `appAccountToken`,
    /// when the app set one, is the account's id), be its transaction's first,
    /// stay within the account's cap, and be of a purchase no other account on
    /// this server holds (409 `purchaseClaimed`; the first account to prove a
    /// purchase holds it). Nothing of the batch is appended when one fails.
    func admitReceipts(_ events: [ProposedEvent], account: String, ledger: Ledger) throws {
        guard let purchases else { return }
        let receipts = events.compactMap { proposed -> PurchaseReceiptAttached? in
            if case .purchaseReceiptAttached(let receipt) = proposed.event { return receipt }
            return nil
        }
        guard !receipts.isEmpty else { return }
        let kept = try ledger.account().entitlements.receipts
        guard kept.count + receipts.count <= Self.maximumReceiptsPerAccount else {
            throw Self.receiptRefused("an account keeps at most \(Self.maximumReceiptsPerAccount) signed transactions")
        }
        var seen = Set<String>()
        for receipt in receipts {
            guard kept[receipt.transactionId] == nil, seen.insert(receipt.transactionId).inserted else {
                throw Self.receiptRefused("transaction \(receipt.transactionId.prefix(64)) has its signed transaction already")
            }
            let signed: StoreKitVerifier.SignedTransaction
            switch purchases.verify(receipt.signedTransaction) {
            case .success(let verified): signed = verified
            case .failure(let failure): throw Self.receiptRefused(failure.description)
            }
            guard signed.transactionId == receipt.transactionId else {
                throw Self.receiptRefused("the signed transaction proves another transaction than \(receipt.transactionId.prefix(64))")
            }
            guard signed.appAccountToken.map({ $0.lowercased() == account }) ?? true else {
                throw Self.receiptRefused("the signed transaction was bought for another account (its appAccountToken)")
            }
            guard try holds(signed.originalTransactionId, account: account) else {
                throw APIError(
                    status: 409, code: "purchaseClaimed",
                    message: "this purchase opens another account on this server: one purchase holds one account's Coach product")
            }
        }
    }

    /// Only the server's operator grants Coach without a store: a push that
    /// carries an `OperatorCoachGranted` not stored already is refused whole
    /// (403 `operatorOnly`).
    func refuseOperatorGrants(_ events: [ProposedEvent]) throws {
        guard events.contains(where: { if case .operatorCoachGranted = $0.event { true } else { false } }) else { return }
        throw APIError(
            status: 403, code: "operatorOnly",
            message: "only the server's operator grants Coach without a purchase (ledger server account grant-coach)")
    }

    static func receiptRefused(_ why: String) -> APIError {
        APIError(status: 422, code: "receiptRefused", message: "the signed transaction is refused: \(why)")
    }

    /// Whether `account` holds the purchase, claiming it when no account has.
    func holds(_ originalTransactionId: String, account: String) throws -> Bool {
        if heldPurchases.contains(originalTransactionId, account) { return true }
        let holder = try accounts.table.claimPurchase(originalTransactionId, account: account, at: Timestamp.now().millis)
        if holder == account { heldPurchases.insert(originalTransactionId, account) }
        return holder == account
    }

    /// A Coach product active at `time` that rests on a signed transaction the
    /// store root verifies: only the log's Coach transactions not ended by a
    /// refund or revocation are looked at; each one's receipt (verified when
    /// pushed, its verdict kept) must prove it, grant Coach, be bought and
    /// not expired or revoked at `time` by the store's own dates, and be of a
    /// purchase this account holds. A purchase event alone, which any device
    /// can write, opens nothing. A grant by this server's operator
    /// (`OperatorCoachGranted`, which no push may carry) opens it too.
    package func hasCoachProduct(_ accountId: String, at time: Timestamp = .now()) throws -> Bool {
        let entitlements = try logs.log(accountId).withLedger { try $0.account().entitlements }
        if entitlements.operatorGrant(at: time) != nil { return true }
        guard let purchases else { return false }
        for id in entitlements.order {
            guard let recorded = entitlements.transactions[id], recorded.product.grantsCoach,
                recorded.endedAt.map({ time < $0 }) ?? true, let jws = entitlements.receipts[id],
                case .success(let signed) = purchases.verify(jws), signed.transactionId == id,
                let product = Product(rawValue: signed.productId), product.grantsCoach, signed.isActive(at: time),
                signed.appAccountToken.map({ $0.lowercased() == accountId }) ?? true,
                try holds(signed.originalTransactionId, account: accountId)
            else { continue }
            return true
        }
        return false
    }
}

/// Purchases known to be held by an account, at most 10,000 pairs (cleared
/// past it): a holder never changes while its account exists, and an
/// erased account's tokens answer nothing.
final class HeldPurchases: @unchecked Sendable {
    private let lock = NSLock()
    private var pairs: Set<String> = []

    func contains(_ purchase: String, _ account: String) -> Bool { lock.withLock { pairs.contains(purchase + "\u{0}" + account) } }

    func insert(_ purchase: String, _ account: String) {
        lock.withLock {
            if pairs.count >= 10_000 { pairs.removeAll() }
            pairs.insert(purchase + "\u{0}" + account)
        }
    }
}

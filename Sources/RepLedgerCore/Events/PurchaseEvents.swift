import Foundation

/// A store transaction as a fact (DOMAIN.md §10). Renewals share
/// `originalTransactionId`; recording a known `transactionId` again (restore)
/// changes nothing.
public struct PurchaseRecorded: EventPayload {
    public static let eventType = EventType("PurchaseRecorded", code: 60)
    public var transactionId = ""
    public var originalTransactionId = ""
    public var product: Product = .proMonthly
    public var purchasedAt = Timestamp(millis: 0)
    /// Exclusive: the product is active while purchasedAt ≤ T < expiresAt.
    public var expiresAt = Timestamp(millis: 0)
    public var stream: StreamName { .account }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("transactionId", &transactionId)
        try c.field("originalTransactionId", &originalTransactionId)
        try c.field("product", &product)
        try c.field("purchasedAt", &purchasedAt)
        try c.field("expiresAt", &expiresAt)
    }
}

/// The store's signed proof of a transaction, kept beside its
/// `PurchaseRecorded`: StoreKit 2's JWS (ES256, with its certificate chain
/// in `x5c`). Devices read purchases as before; a server counts a product
/// that opens another account's data (Coach) only when this verifies.
public struct PurchaseReceiptAttached: EventPayload {
    public static let eventType = EventType("PurchaseReceiptAttached", code: 64)
    public var transactionId = ""
    public var signedTransaction = ""
    public var stream: StreamName { .account }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("transactionId", &transactionId)
        try c.field("signedTransaction", &signedTransaction)
    }
}

/// Coach granted by the operator of a self-hosted server, without a store
/// purchase (`ledger server account grant-coach ACCOUNT --until DATE`): in
/// force from the event's time until `until` (exclusive). Only the server
/// writes it; a device's push of one is refused, so a device cannot grant
/// itself Coach.
public struct OperatorCoachGranted: EventPayload {
    public static let eventType = EventType("OperatorCoachGranted", code: 65)
    public var until = Timestamp(millis: 0)
    public var stream: StreamName { .account }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("until", &until)
    }
}

public struct PurchaseRefunded: EventPayload {
    public static let eventType = EventType("PurchaseRefunded", code: 61)
    public var transactionId = ""
    public var refundedAt = Timestamp(millis: 0)
    public var stream: StreamName { .account }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("transactionId", &transactionId)
        try c.field("refundedAt", &refundedAt)
    }
}

public struct PurchaseRevoked: EventPayload {
    public static let eventType = EventType("PurchaseRevoked", code: 62)
    public var transactionId = ""
    public var revokedAt = Timestamp(millis: 0)
    public var reason = ""
    public var stream: StreamName { .account }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("transactionId", &transactionId)
        try c.field("revokedAt", &revokedAt)
        try c.field("reason", &reason)
    }
}

public struct UpsellDismissed: EventPayload {
    public static let eventType = EventType("UpsellDismissed", code: 63)
    public var stream: StreamName { .account }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {}
}

import Foundation
import RepLedgerCore

/// The body, the settings and purchases, as the CLI's `body`, `settings` and `purchase` commands record them.
extension RepLedger {
    /// Records a weigh-in now.
    ///
    /// - Parameter kilograms: The bodyweight in kilograms.
    /// - Returns: The weigh-in's id.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    @discardableResult
    public func logBodyweight(kilograms: Double) throws -> UUID {
        try perform { try $0.logBodyweight(Weight(kilograms, .kg)) }
    }

    /// Sets the unit weights are shown in; what is stored stays as entered.
    ///
    /// - Parameter unit: `.kg` or `.lb`.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func setLiftingUnit(_ unit: WeightUnit) throws {
        try perform { try $0.setLiftingUnit(unit) }
    }

    /// Sets the default rest between sets, or one exercise's own.
    ///
    /// - Parameters:
    ///   - seconds: The rest; 0 removes an exercise's own rest.
    ///   - exercise: The exercise; `nil` sets the default.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func setRest(seconds: Int, exercise: String? = nil) throws {
        try perform { try $0.setRest(seconds: seconds, exercise: exercise) }
    }

    /// Records a store transaction (StoreKit's), which grants Pro or Coach until it expires.
    ///
    /// - Parameters:
    ///   - product: The product bought.
    ///   - transactionId: The store's transaction id.
    ///   - originalTransactionId: The subscription's first transaction; by default this one.
    ///   - purchasedAt: When it was bought.
    ///   - expiresAt: When the period bought ends.
    /// - Returns: `false` when the transaction is in the log already (a restore), which records nothing.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    @discardableResult
    public func recordPurchase(
        _ product: Product, transactionId: String, originalTransactionId: String? = nil, purchasedAt: Date, expiresAt: Date
    ) throws -> Bool {
        try perform {
            try $0.recordPurchase(
                product: product, transactionId: transactionId, originalTransactionId: originalTransactionId,
                purchasedAt: Timestamp(date: purchasedAt), expiresAt: Timestamp(date: expiresAt))
        }
    }
}

/// Settings from the `account` stream that commands need.
public struct AccountState: Sendable, Equatable {
    public var liftingUnit: WeightUnit = .kg
    public var bodyweightDisplay: BodyweightDisplay = .kg
    public var restTimerSeconds = 90
    public var entitlements = EntitlementState()
    public var version: Int64 = 0

    public init() {}

    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp) {
        version += 1
        entitlements.evolve(event, at: time)
        switch event {
        case .liftingUnitChanged(let e): liftingUnit = e.unit
        case .bodyweightDisplayChanged(let e): bodyweightDisplay = e.display
        case .restTimerDefaultChanged(let e) where e.exerciseId == nil: restTimerSeconds = e.seconds
        case .restTimerDefaultChanged, .purchaseRecorded, .purchaseRefunded, .purchaseRevoked, .upsellDismissed: break
        default: version -= 1
        }
    }
}

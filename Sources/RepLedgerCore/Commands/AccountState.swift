/// Settings from the `account` stream that commands need.
public struct AccountState: Sendable, Equatable {
    public var liftingUnit: WeightUnit = .kg
    public var bodyweightDisplay: BodyweightDisplay = .kg
    public var distanceUnit: DistanceUnit = .km
    /// False until a `BodyweightDisplayChanged`: bodyweight then shows in the lifting unit.
    public var bodyweightDisplayChosen = false
    public var restTimerSeconds = 90
    public var entitlements = EntitlementState()
    public var version: Int64 = 0

    public init() {}

    /// How bodyweight is shown: the lifter's choice, else their lifting unit.
    public var effectiveBodyweightDisplay: BodyweightDisplay {
        bodyweightDisplayChosen ? bodyweightDisplay : (liftingUnit == .lb ? .lb : .kg)
    }

    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp) {
        version += 1
        entitlements.evolve(event, at: time)
        switch event {
        case .liftingUnitChanged(let e): liftingUnit = e.unit
        case .distanceUnitChanged(let e): distanceUnit = e.unit
        case .bodyweightDisplayChanged(let e):
            bodyweightDisplay = e.display
            bodyweightDisplayChosen = true
        case .restTimerDefaultChanged(let e) where e.exerciseId == nil: restTimerSeconds = e.seconds
        case .restTimerDefaultChanged, .purchaseRecorded, .purchaseRefunded, .purchaseRevoked, .upsellDismissed, .purchaseReceiptAttached: break
        default: version -= 1
        }
    }
}

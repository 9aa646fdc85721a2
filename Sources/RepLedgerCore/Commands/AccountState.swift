/// Settings from the `account` stream that commands need.
public struct AccountState: Sendable, Equatable {
    public var liftingUnit: WeightUnit = .kg
    /// False until a `LiftingUnitChanged`: until the lifter chooses, an import in pounds may switch to pounds.
    public var liftingUnitChosen = false
    public var bodyweightDisplay: BodyweightDisplay = .kg
    public var distanceUnit: DistanceUnit = .km
    /// False until a `BodyweightDisplayChanged`: bodyweight then shows in the lifting unit.
    public var bodyweightDisplayChosen = false
    public var restTimerSeconds = 90
    /// Whether completing a set starts the rest timer (`RestTimerAutoStartChanged`); off until chosen.
    public var restAutoStart = false
    /// The scale effort shows in (`EffortScaleChanged`): RPE until chosen.
    public var effortScale: EffortScale = .rpe
    /// Exercises with a rest of their own, by exercise id (sorted, so the state encodes the same everywhere).
    public var exerciseRests: [ExerciseRest] = []
    /// Tested one-rep maxes (`OneRepMaxTested`), by exercise id.
    public var testedMaxes: [TestedMax] = []
    /// The lifter's bar and plates (`PlateInventorySet`), in `plateUnit`; no plates: the unit's defaults.
    public var plateUnit: WeightUnit = .kg
    public var bar = 0.0
    public var plates: [Double] = []
    public var entitlements = EntitlementState()
    public var version: Int64 = 0
    /// When each setting was last changed: the newer change wins across devices.
    public var editClocks = EditClocks()

    public init() {}

    /// An exercise's own rest between sets.
    public struct ExerciseRest: Sendable, Equatable {
        public var exerciseId: String
        public var seconds: Int
        public init(exerciseId: String, seconds: Int) {
            self.exerciseId = exerciseId
            self.seconds = seconds
        }
    }

    /// The exercise's own rest, if it has one.
    /// A one-rep max the lifter tested, and when.
    public struct TestedMax: Sendable, Equatable {
        public var exerciseId: String
        public var weight: Weight
        public var testedAt: Timestamp
    }

    /// The exercise's tested one-rep max, if any.
    public func testedMax(ofExercise exerciseId: String) -> TestedMax? { testedMaxes.first { $0.exerciseId == exerciseId } }

    public func restSeconds(ofExercise exerciseId: String) -> Int? {
        exerciseRests.first { $0.exerciseId == exerciseId }?.seconds
    }

    /// How bodyweight is shown: the lifter's choice, else their lifting unit.
    public var effectiveBodyweightDisplay: BodyweightDisplay {
        bodyweightDisplayChosen ? bodyweightDisplay : (liftingUnit == .lb ? .lb : .kg)
    }

    /// The bar and plates to load a weight in `unit` with: the lifter's, when set in that unit, else the unit's defaults.
    public func plateInventory(for unit: WeightUnit) -> (bar: Double, plates: [Double]) {
        plates.isEmpty || plateUnit != unit ? (PlateLoading.defaultBar(unit), PlateLoading.defaultPlates(unit)) : (bar, plates)
    }

    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp) {
        version += 1
        entitlements.evolve(event, at: time)
        // A change older than the setting's last one is passed over (it still counts in the stream's version).
        guard editClocks.admits(event, at: time) else { return }
        switch event {
        case .liftingUnitChanged(let e):
            liftingUnit = e.unit
            liftingUnitChosen = true
        case .distanceUnitChanged(let e): distanceUnit = e.unit
        case .bodyweightDisplayChanged(let e):
            bodyweightDisplay = e.display
            bodyweightDisplayChosen = true
        case .restTimerDefaultChanged(let e):
            guard let id = e.exerciseId else { restTimerSeconds = e.seconds; break }
            exerciseRests.removeAll { $0.exerciseId == id }
            if e.seconds > 0 {
                exerciseRests.append(ExerciseRest(exerciseId: id, seconds: e.seconds))
                exerciseRests.sort { $0.exerciseId < $1.exerciseId }
            }
        case .restTimerAutoStartChanged(let e): restAutoStart = e.on
        case .oneRepMaxTested(let e):
            testedMaxes.removeAll { $0.exerciseId == e.exerciseId }
            testedMaxes.append(TestedMax(exerciseId: e.exerciseId, weight: e.weight, testedAt: time))
            testedMaxes.sort { $0.exerciseId < $1.exerciseId }
        case .effortScaleChanged(let e): effortScale = e.scale
        case .plateInventorySet(let e):
            plateUnit = e.unit
            bar = e.bar
            plates = e.plates
        case .purchaseRecorded, .purchaseRefunded, .purchaseRevoked, .upsellDismissed, .purchaseReceiptAttached, .operatorCoachGranted: break
        default: version -= 1
        }
    }
}

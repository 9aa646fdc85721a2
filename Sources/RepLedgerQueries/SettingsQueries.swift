import RepLedgerCore

/// `settings rest`: the rest between sets, the default and each exercise's own.
public enum RestSettingsQuery {
    public struct Answer: Sendable, Equatable {
        public struct ExerciseRest: Sendable, Equatable {
            public var exerciseId: String
            public var name: String
            public var seconds: Int
        }
        public var restSeconds: Int
        public var autoStart: Bool
        public var exercises: [ExerciseRest]
        /// After a change: whether it changed anything; nil when only shown.
        public var changed: Bool?
    }

    /// The rests of an account; an exercise the library no longer names shows its id.
    public static func answer(account: AccountState, library: LibraryState, changed: Bool? = nil) -> Answer {
        Answer(
            restSeconds: account.restTimerSeconds, autoStart: account.restAutoStart,
            exercises: account.exerciseRests.map { r in
                .init(exerciseId: r.exerciseId, name: (try? library.resolve(r.exerciseId).name) ?? r.exerciseId, seconds: r.seconds)
            }, changed: changed)
    }

    /// `{"restSeconds","autoStart","exercises":[{"exerciseId","exercise","restSeconds"}]}`, and `changed` after a change.
    public static func document(_ a: Answer) -> JSONValue {
        .object(
            [
                ("restSeconds", .int(Int64(a.restSeconds))), ("autoStart", .bool(a.autoStart)),
                (
                    "exercises",
                    .array(
                        a.exercises.map { r in
                            .object([("exerciseId", .string(r.exerciseId)), ("exercise", .string(r.name)), ("restSeconds", .int(Int64(r.seconds)))])
                        })
                ),
            ] + (a.changed.map { [("changed", .bool($0))] } ?? []))
    }
}

/// `settings plates`: the lifter's bar and plates, or the unit's defaults.
public enum PlateSettingsQuery {
    public struct Answer: Sendable, Equatable {
        public var unit: WeightUnit
        public var bar: Double
        public var plates: [Double]
        /// No plates of the lifter's own: the lifting unit's defaults.
        public var isDefault: Bool
        /// After a change: whether it changed anything; nil when only shown.
        public var changed: Bool?
    }

    public static func answer(account: AccountState, changed: Bool? = nil) -> Answer {
        let unit = account.plates.isEmpty ? account.liftingUnit : account.plateUnit
        let (bar, plates) = account.plateInventory(for: unit)
        return Answer(unit: unit, bar: bar, plates: plates, isDefault: account.plates.isEmpty, changed: changed)
    }

    /// `{"unit","bar","plates","default"}`, and `changed` after a change.
    public static func document(_ a: Answer) -> JSONValue {
        .object(
            [
                ("unit", .string(a.unit.rawValue)), ("bar", .number(a.bar)), ("plates", .array(a.plates.map(JSONValue.number))),
                ("default", .bool(a.isDefault)),
            ] + (a.changed.map { [("changed", .bool($0))] } ?? []))
    }
}

/// `settings show`: every setting of the account at once, as the app's Settings screen reads them: the lifting
/// unit, how bodyweight and distances show, the effort scale, the bar and plates, and the rests.
public enum SettingsQuery {
    public static func document(account: AccountState, library: LibraryState) -> JSONValue {
        .object([
            ("unit", .string(account.liftingUnit.rawValue)),
            ("bodyweight", .string(account.effectiveBodyweightDisplay == .stoneLb ? "st" : account.effectiveBodyweightDisplay.rawValue)),
            ("distance", .string(account.distanceUnit.rawValue)), ("effort", .string(account.effortScale.rawValue)),
            ("plates", PlateSettingsQuery.document(PlateSettingsQuery.answer(account: account))),
            ("rest", RestSettingsQuery.document(RestSettingsQuery.answer(account: account, library: library))),
        ])
    }
}

import RepLedgerCore

/// `plates WEIGHT`: the plates per side, or the nearest loadable weights.
public enum PlatesQuery {
    /// A weight as the lifter types it (a bare number in their lifting unit, or `102.5kg`, `225lb`), loaded with
    /// their own bar and plates for its unit (the unit's defaults while they have none).
    public static func answer(_ weight: String, account: AccountState) throws(Refusal) -> PlateLoading {
        let target = try Weight.parse(weight, defaultUnit: account.liftingUnit)
        let owned = account.plateInventory(for: target.unit)
        return try PlateLoading.load(target.value, unit: target.unit, bar: owned.bar, plates: owned.plates)
    }

    public static func document(_ p: PlateLoading) -> JSONValue {
        func perSide(_ l: PlateLoading.Load) -> JSONValue {
            .array(l.perSide.map { .object([("plate", .number($0.plate)), ("count", .int(Int64($0.count)))]) })
        }
        func load(_ l: PlateLoading.Load?) -> JSONValue {
            guard let l else { return .null }
            return .object([("weight", .number(l.total)), ("perSide", perSide(l))])
        }
        return .object([
            ("weight", .number(p.target)), ("unit", .string(p.unit.rawValue)), ("bar", .number(p.bar)),
            ("plates", .array(p.plates.map { .number($0) })), ("exact", .bool(p.exact != nil)),
            ("perSide", p.exact.map(perSide) ?? .null),
            ("below", load(p.below)), ("above", load(p.above)),
        ])
    }
}

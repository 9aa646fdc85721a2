/// The unit distances read in; they are stored in metres.
public enum DistanceUnit: String, Sendable, CaseIterable, PayloadEnum {
    case km, mi

    public static let metresPerMile = 1609.344
}

/// Units a lifter can enter a weight in.
public enum WeightUnit: String, Sendable, CaseIterable, PayloadEnum {
    case kg, lb

    /// Exact by definition: 1 lb = 0.45359237 kg.
    public static let kilogramsPerPound = 0.45359237

    /// A weight in kilograms expressed in this unit, for display and export.
    public func fromKilograms(_ kg: Double) -> Double { self == .kg ? kg : kg / Self.kilogramsPerPound }

    /// A weight already in this unit as a person reads it: rounded to 0.01, "102.5 kg".
    public func words(_ value: Double) -> String { "\(((value * 100).rounded() / 100).formatted) \(rawValue)" }

    /// Kilograms shown in this unit, as `words` reads them.
    public func words(kilograms kg: Double) -> String { words(fromKilograms(kg)) }
}

/// A weight exactly as the user entered it. History is never rewritten when
/// the unit setting changes; projections convert with `kilograms`.
public struct Weight: Sendable, Hashable, PayloadRecord {
    public var value: Double = 0
    public var unit: WeightUnit = .kg

    public init() {}
    public init(_ value: Double, _ unit: WeightUnit) {
        self.value = value
        self.unit = unit
    }

    /// Canonical kilograms.
    public var kilograms: Double {
        unit == .kg ? value : value * WeightUnit.kilogramsPerPound
    }

    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("value", &value)
        try c.field("unit", &unit)
    }

    /// The heaviest weight the ledger accepts (DOMAIN.md §2).
    public static let maximumKilograms = 1000.0

    /// Parses `80`, `80kg`, `176.5lb`, `176.5 lbs`; a bare number takes `defaultUnit`.
    /// Refuses what DOMAIN.md §2 refuses: non-numbers, non-finite, negative,
    /// over 1000 kg and unknown units.
    public static func parse(_ text: String, defaultUnit: WeightUnit) throws(Refusal) -> Weight {
        let trimmed = text.trimmingSpaces().lowercased()
        // Digits, sign and point make the number; whatever follows is the unit.
        // Words such as "nan" or "inf" therefore never read as numbers.
        let numberEnd = trimmed.firstIndex { !"0123456789.+-".contains($0) } ?? trimmed.endIndex
        let unitPart = String(trimmed[numberEnd...]).trimmingSpaces()
        guard let value = Double(trimmed[..<numberEnd]) else {
            throw .invalidWeight(text, reason: "it is not a number")
        }
        let unit: WeightUnit
        switch unitPart {
        case "": unit = defaultUnit
        case "kg", "kgs", "kilo", "kilos": unit = .kg
        case "lb", "lbs", "pound", "pounds": unit = .lb
        default: throw .unknownUnit(unitPart)
        }
        let weight = Weight(value, unit)
        try weight.validate(original: text)
        return weight
    }

    /// DOMAIN.md §2: finite, not negative, at most 1000 kg.
    public func validate(original: String? = nil) throws(Refusal) {
        let shown = original ?? "\(value.formatted) \(unit.rawValue)"
        guard value.isFinite else { throw .invalidWeight(shown, reason: "it is not a finite number") }
        guard value >= 0 else { throw .invalidWeight(shown, reason: "a weight cannot be negative") }
        guard kilograms <= Weight.maximumKilograms + 1e-9 else {
            throw .invalidWeight(shown, reason: "it is over the 1000 kg limit")
        }
    }
}

extension String {
    /// The text without leading and trailing white space (the one trim every reader of typed or imported text uses).
    public func trimmingSpaces() -> String {
        // Most strings have nothing to trim: two byte checks answer that (imports call this per field).
        if let f = utf8.first, let l = utf8.last, f > 0x20, f < 0x80, l > 0x20, l < 0x80 { return self }
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

extension Double {
    /// Shortest text that reads back as the same number, without a trailing ".0".
    public var formatted: String {
        if rounded() == self, abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}

import Foundation

/// What a tape or a body-fat reading measures (issue 31 point 8).
public enum BodySite: String, Sendable, CaseIterable, PayloadEnum {
    case waist, chest, arms, thighs, hips, neck, bodyFat

    /// Lengths in cm or in; body fat in percent.
    public var isLength: Bool { self != .bodyFat }
}

/// The unit a body measurement was entered in.
public enum BodyMeasureUnit: String, Sendable, CaseIterable, PayloadEnum {
    case cm
    case inch = "in"
    case percent

    public static let cmPerInch = 2.54
}

/// A body measurement as entered: `82cm`, `32.5in`, `32.5"`, `18%`; a bare number is
/// in cm (in for a lifter who lifts in lb), or percent for body fat.
public struct BodyMeasure: Sendable, Equatable {
    public var value: Double
    public var unit: BodyMeasureUnit

    public init(_ value: Double, _ unit: BodyMeasureUnit) {
        self.value = value
        self.unit = unit
    }

    /// The length in centimetres, or the percentage for body fat.
    public var normalized: Double { unit == .inch ? value * BodyMeasureUnit.cmPerInch : value }

    public static func parse(_ text: String, site: BodySite, lifting: WeightUnit) throws(Refusal) -> BodyMeasure {
        let t = text.trimmingSpaces().lowercased().replacingOccurrences(of: " ", with: "")
        let digits = t.prefix { "0123456789.".contains($0) }
        let suffix = t.dropFirst(digits.count)
        func refuse() -> Refusal {
            site.isLength
                ? .invalidMeasure("\(site.rawValue) '\(text)'", reason: "give a length in cm or in, e.g. 82cm or 32.5in")
                : .invalidMeasure("body fat '\(text)'", reason: "give a percentage, e.g. 18%")
        }
        guard let value = Double(digits), value.isFinite else { throw refuse() }
        let unit: BodyMeasureUnit
        switch (site.isLength, suffix) {
        case (true, ""): unit = lifting == .lb ? .inch : .cm
        case (true, "cm"): unit = .cm
        case (true, "in"), (true, "\""), (true, "inch"), (true, "inches"): unit = .inch
        case (false, ""), (false, "%"): unit = .percent
        default: throw refuse()
        }
        let measure = BodyMeasure(value, unit)
        try measure.check(site)
        return measure
    }

    /// Lengths 5–300 cm (a neck to a chest with room), body fat 1–75 %.
    public func check(_ site: BodySite) throws(Refusal) {
        let range: ClosedRange<Double> = site.isLength ? 5...300 : 1...75
        guard site.isLength == (unit != .percent), range.contains(normalized) else {
            throw .invalidMeasure(
                "\(site.rawValue) \(value.formatted) \(unit.rawValue)",
                reason: site.isLength ? "give 5 to 300 cm (2 to 118 in)" : "give 1 to 75 %")
        }
    }
}

/// The pose of a progress photo.
public enum PhotoPose: String, Sendable, CaseIterable, PayloadEnum {
    case front, side, back, other
}

import Foundation

/// Durations and distances as people type them, and back (DOMAIN.md §2).
public enum Measure {
    /// Parses `90`, `90s`, `1m30s`, `1m 30s`, `2h`, `1h5m`, `1:30`, `1:02:03` into seconds.
    /// A bare number is seconds.
    public static func seconds(_ text: String) throws(Refusal) -> Double {
        let t = text.trimmingSpaces().lowercased().replacingOccurrences(of: " ", with: "")
        func refuse() -> Refusal {
            .invalidMeasure("duration '\(text)'", reason: "give seconds (90), minutes and seconds (1m30s) or a clock (1:30, 1:02:03)")
        }
        guard !t.isEmpty else { throw refuse() }
        if t.contains(":") {
            let parts = t.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), let last = Double(parts.last!), last >= 0, last < 60 else { throw refuse() }
            var total = last
            var scale = 60.0
            for p in parts.dropLast().reversed() {
                guard let v = Int(p), v >= 0, p.allSatisfy(\.isNumber) else { throw refuse() }
                if scale == 60, parts.count == 3, v >= 60 { throw refuse() }
                total += Double(v) * scale
                scale *= 60
            }
            return try checked(total, text)
        }
        if let bare = number(t) { return try checked(bare, text) }
        var total = 0.0
        var rest = Substring(t)
        var seen: Set<Character> = []
        while !rest.isEmpty {
            let digits = rest.prefix { "0123456789.".contains($0) }
            guard let v = number(String(digits)) else { throw refuse() }
            rest = rest.dropFirst(digits.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            let factor: Double
            switch unit {
            case "h", "hr", "hrs", "hour", "hours": factor = 3600
            case "m", "min", "mins", "minute", "minutes": factor = 60
            case "s", "sec", "secs", "second", "seconds": factor = 1
            default: throw refuse()
            }
            guard let key = unit.first, !seen.contains(key) else { throw refuse() }
            seen.insert(key)
            total += v * factor
        }
        return try checked(total, text)
    }

    /// Parses `5000` (metres), `400m`, `5km`, `5 k`, `3.1mi`, `100yd` into metres.
    public static func metres(_ text: String) throws(Refusal) -> Double {
        let t = text.trimmingSpaces().lowercased().replacingOccurrences(of: " ", with: "")
        let digits = t.prefix { "0123456789.".contains($0) }
        guard let v = number(String(digits)) else {
            throw .invalidMeasure("distance '\(text)'", reason: "give metres (5000) or a unit: 400m, 5km, 3.1mi, 100yd")
        }
        let factor: Double
        switch t.dropFirst(digits.count) {
        case "", "m", "meter", "meters", "metre", "metres": factor = 1
        case "k", "km", "kms", "kilometer", "kilometers", "kilometre", "kilometres": factor = 1000
        case "mi", "mile", "miles": factor = 1609.344
        case "yd", "yds", "yard", "yards": factor = 0.9144
        default: throw .invalidMeasure("distance '\(text)'", reason: "unknown unit; use m, km, mi or yd")
        }
        let metres = (v * factor * 1000).rounded() / 1000
        guard metres <= 1_000_000 else { throw .invalidMeasure("distance '\(text)'", reason: "give at most 1000 km") }
        return metres
    }

    private static func number(_ s: String) -> Double? {
        guard !s.isEmpty, s.allSatisfy({ "0123456789.".contains($0) }), let v = Double(s), v.isFinite else { return nil }
        return v
    }

    private static func checked(_ seconds: Double, _ text: String) throws(Refusal) -> Double {
        guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw .invalidMeasure("duration '\(text)'", reason: "give at most 24 hours")
        }
        return (seconds * 1000).rounded() / 1000
    }

    /// `45 s`, `1:30`, `1:02:03` for people.
    public static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        let h = whole / 3600, m = whole / 60 % 60, s = whole % 60
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }

    /// `400 m`, `5 km`, `5.21 km` for people.
    /// Metres as a lifter reads them: metres under a kilometre (or a tenth of a
    /// mile), else km or mi to two decimals, in the lifter's distance unit.
    public static func distance(_ metres: Double, in unit: DistanceUnit = .km) -> String {
        switch unit {
        case .km:
            return metres < 1000 ? "\(((metres * 10).rounded() / 10).formatted) m" : "\(((metres / 10).rounded() / 100).formatted) km"
        case .mi:
            let miles = metres / DistanceUnit.metresPerMile
            return miles < 0.1 ? "\(((metres * 10).rounded() / 10).formatted) m" : "\(((miles * 100).rounded() / 100).formatted) mi"
        }
    }

    /// Pace in seconds per kilometre, when both are there and the distance is not zero.
    public static func paceSecondsPerKm(duration: Double?, distance: Double?) -> Double? {
        guard let d = duration, let m = distance, d > 0, m > 0 else { return nil }
        return d / (m / 1000)
    }
}

/// Bodyweight as people enter and read it: kg, lb, or stone and pounds (DOMAIN.md §15).
public enum BodyweightText {
    public static let poundsPerStone = 14.0

    /// Parses `82.4kg`, `181.5lb`, `13st 2lb`, `13st`, `13 st 2`; a bare number is in `display`'s unit
    /// (stones for stone and pounds). Stone is recorded as the pounds it is, so the fact stays exact.
    public static func parse(_ text: String, display: BodyweightDisplay) throws(Refusal) -> Weight {
        let t = text.trimmingSpaces().lowercased()
        let refuse = Refusal.invalidMeasure("bodyweight '\(text)'", reason: "give a bodyweight such as 82.4kg, 181.5lb or 13st 2lb")
        if let st = t.range(of: "st") {
            let stones = String(t[..<st.lowerBound]).trimmingSpaces()
            var rest = String(t[st.upperBound...]).trimmingSpaces()
            // "st", "stone" or "stones"
            if rest.hasPrefix("ones") {
                rest = String(rest.dropFirst(4)).trimmingSpaces()
            } else if rest.hasPrefix("one") {
                rest = String(rest.dropFirst(3)).trimmingSpaces()
            }
            for suffix in ["lbs", "lb", "pounds", "pound"] where rest.hasSuffix(suffix) {
                rest = String(rest.dropLast(suffix.count)).trimmingSpaces()
                break
            }
            guard let s = Double(stones), s.isFinite, s >= 0, s == s.rounded() || rest.isEmpty else { throw refuse }
            let pounds = rest.isEmpty ? 0 : (Double(rest) ?? -1)
            guard pounds >= 0, pounds < poundsPerStone else { throw refuse }
            let w = Weight(s * poundsPerStone + pounds, .lb)
            try checked(w, text)
            return w
        }
        let unit: WeightUnit = display == .lb ? .lb : .kg
        if display == .stoneLb, let stones = Double(t), stones.isFinite {
            let w = Weight(stones * poundsPerStone, .lb)
            try checked(w, text)
            return w
        }
        let w = try Weight.parse(text, defaultUnit: unit)
        try checked(w, text)
        return w
    }

    /// The unit a bodyweight was typed in (`13st 2lb` → stone and pounds,
    /// `181lb` → lb, `82kg` → kg); nil for a bare number, which is in the display unit.
    public static func typedDisplay(_ text: String) -> BodyweightDisplay? {
        let t = text.trimmingSpaces().lowercased()
        if t.contains("st") { return .stoneLb }
        if t.hasSuffix("lb") || t.hasSuffix("lbs") || t.hasSuffix("pounds") { return .lb }
        if t.hasSuffix("kg") || t.hasSuffix("kgs") { return .kg }
        return nil
    }

    private static func checked(_ w: Weight, _ text: String) throws(Refusal) {
        guard w.value.isFinite, w.kilograms >= 20, w.kilograms <= 400 else {
            throw .invalidMeasure("bodyweight '\(text)'", reason: "give 20 to 400 kg, e.g. 82.4kg, 181.5lb or 13st 2lb")
        }
    }

    /// `82.4 kg`, `181.7 lb` or `13 st 2 lb` for people.
    public static func show(kg: Double, in display: BodyweightDisplay) -> String {
        switch display {
        case .kg: return "\(((kg * 10).rounded() / 10).formatted) kg"
        case .lb: return "\(((kg / WeightUnit.kilogramsPerPound * 10).rounded() / 10).formatted) lb"
        case .stoneLb:
            let pounds = (kg / WeightUnit.kilogramsPerPound * 10).rounded() / 10
            let stones = Int(pounds / poundsPerStone)
            let rest = ((pounds - Double(stones) * poundsPerStone) * 10).rounded() / 10
            return "\(stones) st \(rest.formatted) lb"
        }
    }
}

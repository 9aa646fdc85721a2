import Foundation
import RepLedgerCore

/// Reading the numbers, durations and weights of exports, with the rules for
/// their quirks in one place.
enum ImportValues {
    /// A number, or nil for an empty field. `line` and `column` name the culprit.
    /// A decimal comma (`72,5`, as localised exports write it) reads as a point.
    static func number(_ field: String, line: Int, column: String) throws(ImportError) -> Double? {
        var t = field.trimmingSpaces()
        if t.isEmpty { return nil }
        if !t.contains("."), t.filter({ $0 == "," }).count == 1 { t = t.replacingOccurrences(of: ",", with: ".") }
        guard let v = Double(t), v.isFinite else { throw .malformedRow(line: line, reason: "\(column) '\(field)' is not a number") }
        return v
    }

    /// The one reading of an export's local date and time, for every layout:
    /// `2022-10-04`, `2022-10-04 23:17`, `2022-10-04 23:17:05` (a `T` for the
    /// space, one-digit hours and fractions of a second too), and Hevy's
    /// `4 Oct 2022, 23:17`. Seconds are optional everywhere.
    static func wallClock(_ field: String, line: Int, column: String) throws(ImportError) -> WallClock {
        let t = field.trimmingSpaces()
        guard let w = WallClock.parseISO(t) ?? WallClock.parseWritten(t) else {
            throw .malformedRow(
                line: line,
                reason:
                    "\(column) '\(field)' is not a date and time such as 2022-10-04 23:17 (seconds optional), 4 Oct 2022, 23:17 or Oct 4, 2022, 11:17 PM"
            )
        }
        return w
    }

    /// Reps are whole numbers even where the app writes `10.0`.
    static func reps(_ field: String, line: Int) throws(ImportError) -> Int? {
        guard let v = try number(field, line: line, column: "reps") else { return nil }
        guard v == v.rounded(), abs(v) < 1e6 else { throw .malformedRow(line: line, reason: "reps '\(field)' is not a whole number") }
        return Int(v)
    }

    static func rpe(_ field: String, line: Int) throws(ImportError) -> Double? {
        guard let v = try number(field, line: line, column: "RPE"), v > 0 else { return nil }
        return v
    }

    /// The float-noise rule. A value with noise past the third decimal is
    /// either an exact pound value converted to kilograms (the lifter typed
    /// 15 lb, the app wrote 6.80388555 kg), which is recorded in pounds as
    /// it was entered, or noise to round away to 0.001 in the file's unit
    /// (`185.00000000000003` lb is 185 lb).
    static func weight(_ value: Double, _ unit: WeightUnit) -> Weight {
        let thousandths = value * 1000
        let noisy = abs(thousandths - thousandths.rounded()) > 1e-6
        if noisy, unit == .kg {
            let pounds = value / 0.45359237
            let tenths = (pounds * 10).rounded() / 10
            if abs(pounds - tenths) < 1e-4 { return Weight(tenths, .lb) }
        }
        return Weight(thousandths.rounded() / 1000, unit)
    }

    /// `1h 38m`, `55m`, `1h`, `20s`, `9min`, `1h 2m 3s`, `0:09:21`, and the
    /// Chinese, Japanese and Korean words (`1小时29分钟`, `1時間29分`, `1시간 29분`); nil when empty.
    static func duration(_ field: String, line: Int) throws(ImportError) -> Double? {
        let t = field.trimmingSpaces().lowercased()
        if t.isEmpty { return nil }
        if t.contains(":") {
            let parts = t.split(separator: ":").map { Double($0) }
            guard parts.count >= 2, parts.count <= 3, parts.allSatisfy({ $0 != nil }) else {
                throw .malformedRow(line: line, reason: "duration '\(field)' is not H:MM:SS")
            }
            return parts.reduce(0.0) { $0 * 60 + $1! }
        }
        if let seconds = Double(t) { return seconds }
        var total = 0.0
        var digits = ""
        var unit = ""
        func flush() throws(ImportError) {
            guard !digits.isEmpty, let v = Double(digits) else { throw .malformedRow(line: line, reason: "duration '\(field)' is not understood") }
            switch unit {
            case "h", "hr", "hrs", "小时", "小時", "時間", "시간": total += v * 3600
            case "m", "min", "mins", "分钟", "分鐘", "分", "분": total += v * 60
            case "s", "sec", "secs", "秒", "초": total += v
            default: throw .malformedRow(line: line, reason: "duration '\(field)' has an unknown unit '\(unit)'")
            }
            digits = ""; unit = ""
        }
        for c in t {
            if c.isNumber || c == "." {
                if !unit.isEmpty { try flush() }
                digits.append(c)
            } else if c.isLetter {
                unit.append(c)
            } else if c == " " {
                continue
            } else {
                throw .malformedRow(line: line, reason: "duration '\(field)' is not understood")
            }
        }
        try flush()
        return total
    }

    /// Strong and Hevy write a note's line breaks as the two characters `\n`.
    static func note(_ field: String) -> String? {
        guard !field.isEmpty else { return nil }
        let t = (field.utf8.contains(0x5C) ? field.replacingOccurrences(of: "\\n", with: "\n") : field).trimmingSpaces()
        return t.isEmpty ? nil : t
    }

    /// Names lose the padding spaces some apps keep.
    static func name(_ field: String) -> String {
        field.trimmingSpaces()
    }

    /// A distance in metres, or nil when there is none. A unit the importer
    /// does not know is no distance when the value is zero (FitNotes writes a
    /// plank's `kg` there) and a refused row when it is not.
    static func distance(_ field: String, unit: String, line: Int) throws(ImportError) -> Double? {
        guard let v = try number(field, line: line, column: "distance"), v > 0 else { return nil }
        guard let m = metres(v, unit: unit) else {
            throw .malformedRow(line: line, reason: "distance unit '\(unit)' is not km, m, mi, ft or yd")
        }
        return m
    }

    static func metres(_ value: Double?, unit: String) -> Double? {
        guard let v = value, v > 0 else { return nil }
        switch unit {
        case "km": return v * 1000
        case "m", "meters", "metres", "meter", "metre": return v
        case "mi", "miles", "mile": return v * 1609.344
        case "ft": return v * 0.3048
        case "yd": return v * 0.9144
        default: return nil
        }
    }

    /// Zero means "not measured" in these exports (a plank's weight, a lift's seconds).
    static func positive(_ v: Double?) -> Double? { v.flatMap { $0 > 0 ? $0 : nil } }
}

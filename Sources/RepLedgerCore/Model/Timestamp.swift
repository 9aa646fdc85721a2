import Foundation

/// A moment as a device reported it: UTC milliseconds plus the UTC offset the
/// user was at. The offset is kept so that "which day" and "which ISO week" a
/// workout belongs to is the lifter's local answer, on every machine.
public struct Timestamp: Sendable, Hashable, Comparable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millis: Int64
    /// Minutes east of UTC, as on the device (e.g. +60 for CET).
    public var offsetMinutes: Int

    public init(millis: Int64, offsetMinutes: Int = 0) {
        self.millis = millis
        self.offsetMinutes = offsetMinutes
    }

    /// `date` to the millisecond, with the UTC offset `timeZone` had at that moment.
    public init(date: Date, timeZone: TimeZone = .current) {
        self.init(millis: Int64((date.timeIntervalSince1970 * 1000).rounded()), offsetMinutes: timeZone.secondsFromGMT(for: date) / 60)
    }

    /// The current time with this machine's current UTC offset.
    public static func now() -> Timestamp { Timestamp(date: Date()) }

    /// Ordering is by instant only; the offset is presentation.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.millis < rhs.millis }

    public func adding(milliseconds: Int64) -> Timestamp {
        Timestamp(millis: millis + milliseconds, offsetMinutes: offsetMinutes)
    }

    public func adding(seconds: Int64) -> Timestamp {
        Timestamp(millis: millis + seconds * 1000, offsetMinutes: offsetMinutes)
    }

    /// Local calendar fields at the stored offset.
    public var local: LocalDateTime {
        let localMillis = millis + Int64(offsetMinutes) * 60_000
        let days = localMillis.floorDiv(86_400_000)
        let msOfDay = localMillis - days * 86_400_000
        let (y, m, d) = CivilCalendar.civil(fromDays: days)
        return LocalDateTime(
            year: y, month: m, day: d,
            hour: Int(msOfDay / 3_600_000), minute: Int(msOfDay / 60_000 % 60),
            second: Int(msOfDay / 1000 % 60), millisecond: Int(msOfDay % 1000),
            daysSinceEpoch: days)
    }

    /// Local date and time without a zone, `2026-11-02 07:30:00`, as workout apps export them.
    public var localText: String { local.text }

    /// ISO 8601 with the stored offset, e.g. `2026-11-02T07:30:00+01:00`.
    /// Milliseconds are written only when present, so whole-second times stay short.
    public var iso8601: String {
        let l = local
        var s = "\(pad(l.year, 4))-\(pad(l.month, 2))-\(pad(l.day, 2))T\(pad(l.hour, 2)):\(pad(l.minute, 2)):\(pad(l.second, 2))"
        if l.millisecond != 0 { s += ".\(pad(l.millisecond, 3))" }
        if offsetMinutes == 0 { return s + "Z" }
        let sign = offsetMinutes < 0 ? "-" : "+"
        let a = abs(offsetMinutes)
        return s + "\(sign)\(pad(a / 60, 2)):\(pad(a % 60, 2))"
    }

    /// `YYYY-MM-DD` of the local day.
    public var isoDate: String {
        let l = local
        return "\(pad(l.year, 4))-\(pad(l.month, 2))-\(pad(l.day, 2))"
    }
}

/// Calendar fields of a `Timestamp` at its own offset.
public struct LocalDateTime: Sendable, Hashable {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int, millisecond: Int
    /// Local days since 1970-01-01 (for day differences and weekday).
    public var daysSinceEpoch: Int64

    /// ISO weekday, Monday = 1 … Sunday = 7.
    public var isoWeekday: Int { Int((daysSinceEpoch + 3).floorMod(7)) + 1 }
}

/// Proleptic Gregorian conversions (Howard Hinnant's days-from-civil), so
/// timestamps never depend on Foundation's calendar or locale settings.
public enum CivilCalendar {
    public static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64((month + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func civil(fromDays z0: Int64) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(m <= 2 ? y + 1 : y), Int(m), Int(d))
    }

    public static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension Timestamp {
    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z`, `±HH:MM`,
    /// `±HHMM` or no zone. A time without a zone, or a bare date, is read at
    /// `defaultOffsetMinutes` (the caller passes the machine's local offset).
    public static func parseISO8601(_ text: String, defaultOffsetMinutes: Int) -> Timestamp? {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2),
            (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year, month)
        else { return nil }
        var hour = 0, minute = 0, second = 0, millis = 0
        var offset = defaultOffsetMinutes
        if i < b.count {
            guard b[i] == 84 || b[i] == 32 else { return nil }  // 'T' or ' '
            i += 1
            guard let h = digits(2), expect(58), let m = digits(2), h < 24, m < 60 else { return nil }
            hour = h; minute = m
            if expect(58) {
                guard let s = digits(2), s < 60 else { return nil }
                second = s
                if expect(46) {
                    var scale = 100, any = false
                    while i < b.count, b[i] >= 48, b[i] <= 57 {
                        millis += Int(b[i] - 48) * scale
                        scale /= 10; i += 1; any = true
                    }
                    guard any else { return nil }
                }
            }
            if i < b.count {
                if expect(90) {  // 'Z'
                    offset = 0
                } else {
                    let sign: Int
                    if expect(43) { sign = 1 } else if expect(45) { sign = -1 } else { return nil }
                    guard let oh = digits(2), oh <= 18 else { return nil }
                    _ = expect(58)
                    let om = i < b.count ? digits(2) : 0
                    guard let om, om < 60 else { return nil }
                    offset = sign * (oh * 60 + om)
                }
            }
        }
        guard i == b.count else { return nil }
        let days = CivilCalendar.days(fromCivil: year, month, day)
        let localMillis = days * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000 + second * 1000 + millis)
        return Timestamp(millis: localMillis - Int64(offset) * 60_000, offsetMinutes: offset)
    }
}

extension Int64 {
    func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
    func floorMod(_ d: Int64) -> Int64 { self - floorDiv(d) * d }
}

@inline(__always)
func pad(_ v: Int, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// `YYYY-MM-DD HH:MM:SS`, the wall-clock form of exports and workout identities.
public func dateTimeText(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> String {
    "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
}

extension LocalDateTime {
    /// `YYYY-MM-DD HH:MM:SS`.
    var text: String { dateTimeText(year, month, day, hour, minute, second) }

    /// ISO 8601 week: weeks start on Monday and week 1 holds the year's first Thursday.
    public var isoWeek: (year: Int, week: Int) {
        let thursday = daysSinceEpoch - Int64(isoWeekday) + 4
        let (y, _, _) = CivilCalendar.civil(fromDays: thursday)
        let jan1 = CivilCalendar.days(fromCivil: y, 1, 1)
        return (y, Int((thursday - jan1) / 7) + 1)
    }

    /// `2026-W45`.
    public var isoWeekKey: String {
        let w = isoWeek
        return "\(w.year)-W\(w.week < 10 ? "0" : "")\(w.week)"
    }
}

import Foundation
import RepLedgerCore

/// A local date and time as an export writes it: no zone. It becomes a
/// `Timestamp` only with the zone the lifter trained in (`--timezone`).
public struct WallClock: Sendable, Hashable, Comparable {
    public var year: Int, month: Int, day: Int
    public var hour = 0, minute = 0, second = 0

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second
    }

    /// The wall clock `naiveSeconds` names.
    init(naiveSeconds: Int64) {
        let days = naiveSeconds >= 0 ? naiveSeconds / 86_400 : (naiveSeconds - 86_399) / 86_400
        let (y, m, d) = CivilCalendar.civil(fromDays: days)
        let rest = Int(naiveSeconds - days * 86_400)
        self.init(year: y, month: m, day: d, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
    }

    /// Seconds since 1970 as if the wall clock were UTC.
    var naiveSeconds: Int64 {
        CivilCalendar.days(fromCivil: year, month, day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public static func < (a: WallClock, b: WallClock) -> Bool { a.naiveSeconds < b.naiveSeconds }

    /// `YYYY-MM-DD HH:MM:SS`, the form used in workout identities.
    public var text: String { dateTimeText(year, month, day, hour, minute, second) }

    public func timestamp(in zone: ImportTimeZone) -> Timestamp {
        let offset = zone.offsetMinutes(atWallClock: naiveSeconds)
        return Timestamp(millis: (naiveSeconds - Int64(offset) * 60) * 1000, offsetMinutes: offset)
    }

    /// `YYYY-MM-DD`, or that with a time: `HH:MM`, `H:MM`, `HH:MM:SS` or
    /// `HH:MM:SS.fff` after a space or a `T` (a spreadsheet that re-saves an
    /// export drops the seconds; a fraction of a second is dropped here).
    /// `/` may separate the date's parts.
    static func parseISO(_ s: String) -> WallClock? {
        let b = Array(s.utf8)
        var i = 0
        func digits(_ least: Int, _ most: Int) -> Int? {
            var v = 0, n = 0
            while i < b.count, n < most, b[i] >= 48, b[i] <= 57 {
                v = v * 10 + Int(b[i] - 48)
                i += 1; n += 1
            }
            return n >= least ? v : nil
        }
        func skip(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let y = digits(4, 4), i < b.count else { return nil }
        let separator = b[i]  // '-' or '/', the same twice
        guard separator == 45 || separator == 47, skip(separator), let m = digits(2, 2), skip(separator), let d = digits(2, 2) else { return nil }
        var w = WallClock(year: y, month: m, day: d)
        if i < b.count {
            guard skip(32) || skip(84), let h = digits(1, 2), skip(58), let mi = digits(2, 2) else { return nil }
            w.hour = h; w.minute = mi
            if skip(58) {
                guard let sec = digits(2, 2) else { return nil }
                w.second = sec
                if skip(46) { guard digits(1, 9) != nil else { return nil } }
            }
            guard i == b.count else { return nil }
        }
        return w.isValid ? w : nil
    }

    var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilCalendar.daysInMonth(year, month)
            && (0..<24).contains(hour) && (0..<60).contains(minute) && (0..<60).contains(second)
    }
}

/// The zone an export's wall-clock times are read in: an IANA name, UTC or a fixed offset.
public struct ImportTimeZone: Sendable {
    public let name: String
    private let fixedMinutes: Int?
    private let zone: TimeZone?

    public static var current: ImportTimeZone {
        ImportTimeZone(name: TimeZone.current.identifier, fixedMinutes: nil, zone: TimeZone.current)
    }

    private init(name: String, fixedMinutes: Int?, zone: TimeZone?) {
        self.name = name; self.fixedMinutes = fixedMinutes; self.zone = zone
    }

    public init(parsing text: String) throws(ImportError) {
        let t = text.trimmingSpaces()
        if t.uppercased() == "UTC" || t == "Z" { self.init(name: "UTC", fixedMinutes: 0, zone: nil); return }
        if let first = t.first, first == "+" || first == "-" {
            let digits = t.dropFirst().filter { $0 != ":" }
            guard digits.count == 4, let v = Int(digits), v % 100 < 60, v / 100 <= 14 else { throw .invalidTimeZone(text) }
            let minutes = (v / 100 * 60 + v % 100) * (first == "-" ? -1 : 1)
            self.init(name: t, fixedMinutes: minutes, zone: nil)
            return
        }
        guard let z = TimeZone(identifier: t) else { throw .invalidTimeZone(text) }
        self.init(name: z.identifier, fixedMinutes: nil, zone: z)
    }

    /// The zone's offset at an instant (seconds since 1970), for files that write UTC.
    func offsetMinutes(atInstant seconds: Int64) -> Int {
        if let fixed = fixedMinutes { return fixed }
        guard let zone else { return 0 }
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))) / 60
    }

    /// The zone's offset at a wall-clock time; daylight-saving gaps resolve forwards.
    func offsetMinutes(atWallClock naive: Int64) -> Int {
        if let fixed = fixedMinutes { return fixed }
        guard let zone else { return 0 }
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(naive)))
        let settled = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(naive - Int64(guess))))
        return settled / 60
    }
}

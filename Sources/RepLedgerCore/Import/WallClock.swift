import Foundation

/// A local date and time as an export writes it: no zone. It becomes a
/// `Timestamp` only with the zone the lifter trained in (`--timezone`).
public struct WallClock: Sendable, Hashable, Comparable {
    public var year: Int, month: Int, day: Int
    public var hour = 0, minute = 0, second = 0

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second
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

    /// `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD` (Strong, FitNotes).
    static func parseISO(_ s: String) -> WallClock? {
        let b = Array(s.utf8)
        func num(_ from: Int, _ n: Int) -> Int? {
            guard from + n <= b.count else { return nil }
            var v = 0
            for c in b[from..<(from + n)] {
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard b.count >= 10, b[4] == 45, b[7] == 45, let y = num(0, 4), let m = num(5, 2), let d = num(8, 2) else { return nil }
        var w = WallClock(year: y, month: m, day: d)
        if b.count > 10 {
            guard b.count >= 16, b[10] == 32 || b[10] == 84, let h = num(11, 2), b[13] == 58, let mi = num(14, 2) else { return nil }
            w.hour = h; w.minute = mi
            if b.count > 16 {
                guard b.count == 19, b[16] == 58, let sec = num(17, 2) else { return nil }
                w.second = sec
            }
        }
        return w.isValid ? w : nil
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Hevy's `8 Apr 2026, 16:50`.
    static func parseHevy(_ s: String) -> WallClock? {
        let parts = s.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        guard parts.count == 4, let d = Int(parts[0]), let mIndex = months.firstIndex(of: parts[1].lowercased().prefix(3).description),
              let y = Int(parts[2]) else { return nil }
        let hm = parts[3].split(separator: ":")
        guard hm.count >= 2, let h = Int(hm[0]), let mi = Int(hm[1]) else { return nil }
        let sec = hm.count > 2 ? Int(hm[2]) : 0
        guard let sec else { return nil }
        let w = WallClock(year: y, month: mIndex + 1, day: d, hour: h, minute: mi, second: sec)
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

    /// The zone's offset at a wall-clock time; daylight-saving gaps resolve forwards.
    func offsetMinutes(atWallClock naive: Int64) -> Int {
        if let fixed = fixedMinutes { return fixed }
        guard let zone else { return 0 }
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(naive)))
        let settled = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(naive - Int64(guess))))
        return settled / 60
    }
}

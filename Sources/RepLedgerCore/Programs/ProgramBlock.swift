import Foundation

/// A program's planned weeks (`ProgramWeeksPlanned`) read as days: which week
/// of its block a day falls in. The block repeats after its last week (a new
/// mesocycle, or the next stretch before a deload); days before it begins
/// count as its first week, so `next` gives week 1's targets ahead of it.
public struct ProgramBlock: Sendable, Equatable {
    public static let weeksRange = 2...16

    public let kind: ProgramBlockKind
    public let weeks: Int
    /// Local days since 1970-01-01 of week 1's first day.
    public let startDay: Int64

    /// Refuses a length outside 2–16 weeks or a start that is no date.
    public init(_ e: ProgramWeeksPlanned) throws(Refusal) {
        guard Self.weeksRange.contains(e.weeks) else {
            throw .invalidProgram("\(e.weeks) weeks is refused: a block has \(Self.weeksRange.lowerBound) to \(Self.weeksRange.upperBound) weeks")
        }
        guard let day = Self.day(e.startsOn) else { throw .invalidProgram("the start '\(e.startsOn)' is refused: give a date as YYYY-MM-DD") }
        kind = e.kind
        weeks = e.weeks
        startDay = day
    }

    /// Where a day falls: the week of the block (1-based), which repetition of the block (1-based), and the week's first day.
    public struct Position: Sendable, Equatable {
        public var week: Int
        public var cycle: Int
        public var firstDay: Int64
        /// False before the block begins (the day counts as week 1).
        public var begun: Bool
    }

    public func position(onDay day: Int64) -> Position {
        guard day >= startDay else { return Position(week: 1, cycle: 1, firstDay: startDay, begun: false) }
        let index = Int((day - startDay) / 7)
        return Position(week: index % weeks + 1, cycle: index / weeks + 1, firstDay: startDay + Int64(index) * 7, begun: true)
    }

    /// The block's last week is its deload.
    public func isDeload(week: Int) -> Bool { week == weeks }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` date, nil unless it is one.
    public static func day(_ text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m),
            (1...CivilCalendar.daysInMonth(y, m)).contains(d)
        else { return nil }
        return CivilCalendar.days(fromCivil: y, m, d)
    }

    /// `YYYY-MM-DD` of a day since 1970-01-01.
    public static func date(_ day: Int64) -> String { Timestamp(millis: day * 86_400_000, offsetMinutes: 0).isoDate }
}

extension ProgramCatalogState.Program {
    /// Its planned weeks, if any (an event that passed admission always reads).
    public var weekPlan: ProgramBlock? { block.flatMap { try? ProgramBlock($0) } }
}

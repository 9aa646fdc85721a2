import Foundation
import LedgerTestSupport
import RepLedgerProjections
import RepLedgerQueries
import Testing

@testable import RepLedgerCore

/// A program's days on weekdays (`program schedule P mon,wed,fri`): the
/// calendar's planned days, `next`'s next session and a coach's planned
/// sessions all read the one `Schedule`.
@Suite("Programs on weekdays")
struct ProgramScheduleTests {
    /// A 3-day program made on Monday 2026-11-02, put on Mon/Wed/Fri, and workouts on the 2nd, 4th and 9th.
    func scheduled() throws -> MemoryLedger {
        let t = try MemoryLedger()
        let made = Timestamp.at("2026-11-02T08:00:00Z")
        var q = QuestionnaireAnswered()
        q.equipment = Equipment.allCases
        _ = try t.ledger.execute(at: made) { try $0.answerQuestionnaire(q) }
        _ = try t.ledger.execute(at: made) { try $0.generateProgram(seed: 3) }
        _ = try t.ledger.execute(at: made) { try $0.scheduleProgram("active", weekdays: [5, 1, 3]) }
        for day in ["02", "04", "09"] {
            let at = Timestamp.at("2026-11-\(day)T18:00:00Z")
            let w = try t.ledger.execute(at: at) { try $0.startWorkout(name: "W") }
            try t.ledger.execute(at: at.adding(seconds: 3600)) { try $0.finishWorkout(w) }
        }
        return t
    }

    @Test("the calendar marks the scheduled weekdays from the program's day on, and counts those trained")
    func calendar() throws {
        let log = try TrainingLogProjection.build(from: try scheduled().store)
        #expect(log.programs.live.first?.weekdays == [1, 3, 5])
        let a = CalendarQuery.answer(log, month: "2026-11", now: .at("2026-11-12T12:00:00Z"))
        let planned = a.weeks.joined().filter { $0.inMonth && $0.planned }.map { String($0.date.suffix(2)) }
        #expect(planned == ["02", "04", "06", "09", "11", "13", "16", "18", "20", "23", "25", "27", "30"])
        #expect(a.plannedDays == 13 && a.plannedDaysTrained == 3)
        // Before the program was made nothing is planned.
        let october = CalendarQuery.answer(log, month: "2026-10", now: .at("2026-11-12T12:00:00Z"))
        #expect(october.weeks.joined().filter { $0.inMonth && $0.planned }.isEmpty)
    }

    @Test("a coach's planned sessions are the scheduled days in the window; next names the next one")
    func complianceAndNext() throws {
        let log = try TrainingLogProjection.build(from: try scheduled().store)
        let now = Timestamp.at("2026-11-12T12:00:00Z")
        let p = ClientProgress.compute(log, records: [], now: now)
        // Last 7 days (6th to 12th): Fri 6, Mon 9, Wed 11 planned; the 9th done.
        #expect(p.compliance?.sessions7 == 0.333)
        // Since the program (2nd to 12th): five planned, three done.
        #expect(p.compliance?.sessions30 == 0.6)
        #expect(p.weeks.last?.monday == "2026-11-09" && p.weeks.last?.planned == 2 && p.weeks.last?.done == 1)
        #expect(try ProgressionQuery.nextDay(log, program: nil, now: now)?.on == "2026-11-13")
        #expect(try ProgressionQuery.nextDay(log, program: nil, now: .at("2026-11-14T09:00:00Z"))?.on == "2026-11-16")
    }

    @Test("next names the day after the last one trained, and skips a scheduled day already trained")
    func nextNamesTheDay() throws {
        let t = try scheduled()
        var log = try TrainingLogProjection.build(from: t.store)
        let program = try #require(log.programs.live.first).generated
        // No program day trained yet (the three workouts were not the program's): day 1, on Friday the 13th.
        let first = try #require(try ProgressionQuery.nextDay(log, program: nil, now: .at("2026-11-13T07:00:00Z")))
        #expect((first.index, first.name, first.on) == (0, program.sessions[0].name, "2026-11-13"))
        #expect(first.exerciseIds == program.sessions[0].exercises.map(\.exerciseId))
        // Day 1 trained that Friday: the next is day 2, and not today but Monday the 16th.
        let at = Timestamp.at("2026-11-13T18:00:00Z")
        let w = try t.ledger.execute(at: at) { try $0.startWorkout(program: "active", day: 1) }
        try t.ledger.execute(at: at.adding(seconds: 3600)) { try $0.finishWorkout(w) }
        log = try TrainingLogProjection.build(from: t.store)
        let second = try #require(try ProgressionQuery.nextDay(log, program: nil, now: .at("2026-11-13T20:00:00Z")))
        #expect((second.index, second.name, second.on) == (1, program.sessions[1].name, "2026-11-16"))
        // The targets are that day's exercises only; --all (no day) gives the program's.
        let targets = try ProgressionQuery.targets(log, exercise: nil, program: nil, rules: .default, day: second)
        #expect(targets.map(\.exerciseId) == second.exerciseIds)
        let every = try ProgressionQuery.targets(log, exercise: nil, program: nil, rules: .default)
        #expect(every.count > targets.count)
    }

    @Test("weekdays are read as people type them; bad ones are refused, and nothing is appended")
    func refusals() throws {
        #expect(try Weekdays.parse("mon,wed,fri") == [1, 3, 5])
        #expect(try Weekdays.parse("Friday Monday") == [1, 5])
        #expect(try Weekdays.parse("none") == [])
        #expect(throws: Refusal.self) { try Weekdays.parse("mon,funday") }
        #expect(throws: Refusal.self) { try Weekdays.parse("mon,monday") }
        #expect(throws: Refusal.self) { try Weekdays.parse("mo") }
        let t = try scheduled()
        let before = try t.store.head().position
        #expect(throws: Refusal.self) { try t.ledger.execute { try $0.scheduleProgram("active", weekdays: [0, 3]) } }
        #expect(throws: Refusal.nothingToChange) { try t.ledger.execute { try $0.scheduleProgram("active", weekdays: [1, 3, 5]) } }
        #expect(try t.store.head().position == before)
        // A pushed schedule is checked by the same rule.
        var pushed = ProgramScheduled()
        pushed.weekdays = [8]
        #expect(throws: Refusal.self) { try EventAdmission.checkValues(.programScheduled(pushed)) }
        _ = try t.ledger.execute { try $0.scheduleProgram("active", weekdays: []) }
        #expect(try TrainingLogProjection.build(from: t.store).programs.live.first?.weekdays == [])
    }
}

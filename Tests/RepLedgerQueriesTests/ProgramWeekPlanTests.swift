import Foundation
import LedgerTestSupport
import RepLedgerProjections
import RepLedgerQueries
import Testing

@testable import RepLedgerCore

/// A program's planned weeks (issue 49, rows 4 and 5): where a day falls in
/// the block, what each week asks for under the rules, and a coach's
/// compliance counting each planned session at its week's sets.
@Suite("Programs in planned weeks")
struct ProgramWeekPlanTests {
    static func block(_ kind: ProgramBlockKind = .mesocycle, weeks: Int, startsOn: String = "2026-11-02") throws -> ProgramBlock {
        var e = ProgramWeeksPlanned()
        e.kind = kind
        e.weeks = weeks
        e.startsOn = startsOn
        return try ProgramBlock(e)
    }

    @Test("a day falls in its week; days before the start count as week 1; the block repeats after its last week")
    func positions() throws {
        let b = try Self.block(weeks: 5)
        let start = try #require(ProgramBlock.day("2026-11-02"))
        #expect(b.position(onDay: start - 1) == .init(week: 1, cycle: 1, firstDay: start, begun: false))
        #expect(b.position(onDay: start + 6).week == 1 && b.position(onDay: start + 7).week == 2)
        #expect(b.position(onDay: start + 34) == .init(week: 5, cycle: 1, firstDay: start + 28, begun: true))
        #expect(b.position(onDay: start + 35) == .init(week: 1, cycle: 2, firstDay: start + 35, begun: true))
        for bad in ["2026-2-01", "2026-02-29", "2026-13-01", "26-11-02", "", "2026-11-02T00"] { #expect(ProgramBlock.day(bad) == nil, "\(bad)") }
        #expect(ProgramBlock.day("2028-02-29") != nil)
    }

    @Test("every length from 2 to 16 weeks steps RIR from the start to the end rule, never up, and ends on a deload")
    func rirSteps() throws {
        var rules = RuleSet.default
        for (start, end) in [(3, 0), (4, 1), (2, 2)] {
            rules.mesocycleStartRIR = start
            rules.mesocycleEndRIR = end
            for n in ProgramBlock.weeksRange {
                let weeks = ProgramWeekPlan.weeks(try Self.block(weeks: n), rules: rules)
                let rir = weeks.dropLast().compactMap(\.rir)
                #expect(rir.count == n - 1 && rir.first == start && (n == 2 || rir.last == end), "\(n) weeks: \(rir)")
                #expect(zip(rir, rir.dropFirst()).allSatisfy { $0 >= $1 })
                #expect(weeks.last?.deload == true && weeks.last?.rir == nil && weeks.dropLast().allSatisfy { !$0.deload })
                #expect(weeks.map(\.setsAddedPerMuscle) == (0..<n - 1).map { $0 * rules.mesocycleSetsPerMuscle } + [0])
            }
        }
        let cycle = ProgramWeekPlan.weeks(try Self.block(.deloadCycle, weeks: 4), rules: .default)
        #expect(cycle.map(\.rir) == [nil, nil, nil, nil] && cycle.map(\.loadFactor) == [1, 1, 1, 0.9])
    }

    /// A 3-day program made on Monday 2026-11-02, on Mon/Wed/Fri, planned as a 3-week mesocycle from that day.
    func planned() throws -> MemoryLedger {
        let t = try MemoryLedger()
        let made = Timestamp.at("2026-11-02T08:00:00Z")
        var q = QuestionnaireAnswered()
        q.equipment = Equipment.allCases
        _ = try t.ledger.execute(at: made) { try $0.answerQuestionnaire(q) }
        _ = try t.ledger.execute(at: made) { try $0.generateProgram(seed: 3, weeks: 3) }
        _ = try t.ledger.execute(at: made) { try $0.scheduleProgram("active", weekdays: [1, 3, 5]) }
        return t
    }

    @Test("a coach's weeks carry the block week; set compliance plans each day at its week's sets")
    func compliance() throws {
        let t = try planned()
        var log = try TrainingLogProjection.build(from: t.store)
        let program = try #require(log.programs.live.first)
        #expect(program.block?.startsOn == "2026-11-02" && program.block?.weeks == 3)
        let weekSets = ProgramWeekPlan.weeks(try #require(program.weekPlan), rules: .default).map {
            $0.sets(program.generated, library: log.library, minutes: program.sessionMinutes)
        }
        // Day 1 on Monday the 16th, week 3: the deload. Log more working sets than it plans.
        let at = Timestamp.at("2026-11-16T18:00:00Z")
        let first = try #require(program.generated.sessions[0].exercises.first?.exerciseId)
        let w = try t.ledger.execute(at: at) { try $0.startWorkout(program: "active", day: 1, sets: weekSets[2][0]) }
        for i in 0..<12 {
            _ = try t.ledger.execute(at: at.adding(seconds: Int64(60 * (i + 1)))) {
                try $0.logSet(w, exercise: first, metrics: SetMetrics(weight: Weight(50, .kg), reps: 8))
            }
        }
        try t.ledger.execute(at: at.adding(seconds: 3600)) { try $0.finishWorkout(w) }
        log = try TrainingLogProjection.build(from: t.store)

        let now = Timestamp.at("2026-11-19T12:00:00Z")
        let p = ClientProgress.compute(log, records: [], now: now)
        #expect(p.weeks.map { $0.blockWeek?.week } == [nil, 1, 2, 3])
        #expect(p.weeks.last?.blockWeek?.deload == true && p.weeks[2].blockWeek?.rir == 0, "a 3-week block steps from RIR 3 to 0")
        // Last 7 days (13th to 19th): Friday the 13th in week 2, Monday 16 and Wednesday 18 in week 3.
        func average(_ days: [[Int]]) -> Double { Double(days.map { $0.reduce(0, +) }.reduce(0, +)) / Double(days.count) }
        let planned = average(weekSets[1]) + 2 * average(weekSets[2])
        let done = Double(min(12, weekSets[2][0].reduce(0, +)))
        #expect(p.compliance?.sets7 == (min(1, done / planned) * 1000).rounded() / 1000, "\(String(describing: p.compliance)) of \(planned)")
        #expect(p.compliance?.sessions7 == 0.333)
        // The deload week plans fewer sets than the accumulation weeks before it.
        #expect(average(weekSets[2]) < average(weekSets[0]) && average(weekSets[1]) > average(weekSets[0]))
    }
}

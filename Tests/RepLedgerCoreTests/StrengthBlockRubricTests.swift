import Foundation
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections

/// A strength coach's reading of every strength block of the matrix
/// (`program generate --style strength-block`; docs/PROGRAMS.md, "The strength
/// block", has the numbers and their sources), with seed 001's four rules and
/// the rubric held as for the seed's programs. The test reads the library's
/// movements, names and equipment, not the generator's roles.
@Suite("programs: the strength block passes a coach's rubric over the whole matrix")
struct StrengthBlockRubricTests {
    static let library = Ledger.seededLibrary
    /// The most sets a week gives one muscle (its exercises' first primary muscle): 20, docs/PROGRAMS.md's bound.
    static let weeklySetsPerMuscle = 20
    static let bars: Set<Equipment> = [.barbell, .trapBar, .smithMachine]

    /// A pull from the floor that is no lighter variation (the Romanian, stiff-legged and sumo pulls are hamstring work).
    static func heavyPull(_ x: ExerciseDefined) -> Bool {
        x.canonicalMovement == "hip-hinge" && !x.primaryMuscles.contains(.hamstrings) && x.equipment.contains { bars.contains($0) }
            && (x.name.contains("Deadlift") || x.name.contains("Rack Pull"))
    }

    /// The coach's breaches of one strength block.
    static func coachBreaches(_ program: [ProgramSession], _ q: QuestionnaireAnswered, split: Split) -> [String] {
        var out: [String] = []
        let owned = Set(q.equipment).union([.bodyweight])
        let lines = program.flatMap { s in s.exercises.map { (e: $0, x: library.exercises[$0.exerciseId]!.definition) } }
        var heavyPatterns: [String: Int] = [:]
        for (e, x) in lines {
            let reps = (e.repsMin, e.repsMax)
            let explosive = ProgramGenerator.isExplosive(x)
            if reps == (3, 5) && !explosive {
                // Heavy: a bar, a main pattern, 3 or 4 sets, a rest of 3 minutes.
                let pattern = [
                    "squat": "squat", "hip-hinge": "hinge", "horizontal-press": "press", "incline-press": "press",
                    "decline-press": "press", "vertical-press": "overhead",
                ][x.canonicalMovement]
                if pattern == nil || bars.isDisjoint(with: x.equipment) { out.append("\(x.name) heavy, but no main lift on a bar") }
                if !(3...4).contains(e.sets) || e.restSeconds < 180 { out.append("\(x.name) heavy at \(e.sets) sets, \(e.restSeconds) s rest") }
                if let pattern { heavyPatterns[pattern, default: 0] += 1 }
            } else if reps == (3, 5) {
                if e.restSeconds < 120 { out.append("\(x.name) explosive with \(e.restSeconds) s rest") }
            } else if reps == (6, 8) {
                if e.sets != 3 || e.restSeconds < 120 { out.append("\(x.name) at 6–8 with \(e.sets) sets, \(e.restSeconds) s rest") }
            } else if reps == (8, 12) {
                if e.sets != 3 || e.restSeconds > 90 { out.append("\(x.name) accessory with \(e.sets) sets, \(e.restSeconds) s rest") }
            } else if reps != (1, 1) || x.kind != .isometric {
                out.append("\(x.name) at \(e.repsMin)–\(e.repsMax), no range of the block")
            }
        }
        // Each main pattern is heavy once a week at most; the deadlift is one heavy pull a week where a lighter hinge exists.
        for (pattern, n) in heavyPatterns where n > 1 { out.append("\(pattern) heavy \(n) times a week") }
        let lighterHinge = library.order.compactMap { library.exercises[$0]?.definition }.contains {
            $0.canonicalMovement == "hip-hinge" && $0.primaryMuscles.contains(.hamstrings)
                && $0.complexity <= ProgramGenerator.level(q.experience) && ProgramGenerator.equipmentNeeded($0).isSubset(of: owned)
        }
        let pulls = lines.filter { heavyPull($0.x) }.map(\.x.name)
        if pulls.count > 1 && lighterHinge { out.append("\(pulls.count) heavy pulls a week: \(pulls)") }
        // With a barbell and a lifter who may squat, bench, press and deadlift on it, the week has each heavy.
        if owned.contains(.barbell), q.experience == .intermediate || q.experience == .advanced, lines.count >= 5 {
            let movements = Set(lines.map(\.x.canonicalMovement))
            for (pattern, needs) in [
                ("squat", ["squat"]), ("hinge", ["hip-hinge"]), ("press", ["horizontal-press"]), ("overhead", ["vertical-press"]),
            ]
            where movements.isSuperset(of: needs) && heavyPatterns[pattern] == nil {
                out.append("no heavy \(pattern) in the week")
            }
        }
        // A sane week per muscle.
        var perMuscle: [Muscle: Int] = [:]
        for (e, x) in lines { if let m = x.primaryMuscles.first { perMuscle[m, default: 0] += e.sets } }
        for (m, n) in perMuscle where n > weeklySetsPerMuscle { out.append("\(n) sets a week of \(m.rawValue)") }
        // Every day fits its minutes, but one of main lifts alone, which the program says.
        var generated = ProgramGenerated()
        generated.sessions = program
        for s in program where SessionTime.seconds(s) > q.sessionMinutes * 60 {
            let accessories = s.exercises.filter { ($0.repsMin, $0.repsMax) == (8, 12) || ($0.repsMin, $0.repsMax) == (1, 1) }
            if !accessories.isEmpty { out.append("\(s.name) overruns \(q.sessionMinutes) min with accessories in it") }
            if ProgramAdvice.shortSessions(generated, minutes: q.sessionMinutes) == nil { out.append("\(s.name) overruns, unsaid") }
        }
        return out
    }

    /// A mesocycle's weeks of a program: no day longer than its minutes (or than the day as written, when that
    /// overruns already).
    static func mesocycleBreaches(_ program: [ProgramSession], minutes: Int) throws -> [String] {
        var generated = ProgramGenerated()
        generated.sessions = program
        var planned = ProgramWeeksPlanned()
        planned.weeks = 5
        planned.startsOn = "2026-11-30"
        var out: [String] = []
        for week in ProgramWeekPlan.weeks(try ProgramBlock(planned), rules: .default) {
            let sets = week.sets(generated, library: library, minutes: minutes)
            for (d, s) in program.enumerated() {
                let seconds = SessionTime.seconds(s, sets: sets[d])
                if seconds > max(minutes * 60, SessionTime.seconds(s)) {
                    out.append("week \(week.week) \(s.name): \(SessionTime.minutes(seconds: seconds)) min in \(minutes)")
                }
            }
        }
        return out
    }

    @Test(
        "every strength block passes the coach's rubric and seed 001's rules, its mesocycle's weeks fit the session",
        arguments: ProgramMatrixTests.equipmentSets.map(\.name))
    func everyBlockPasses(equipment name: String) throws {
        let gear = try #require(ProgramMatrixTests.equipmentSets.first { $0.name == name }).gear
        var broken: [String: (count: Int, first: String)] = [:]
        var generated = 0
        for days in 1...6 {
            for split in Split.options(days: days) {
                for experience in ExperienceLevel.allCases {
                    for minutes in ProgramRubricTests.lengths {
                        var q = QuestionnaireAnswered()
                        q.daysPerWeek = days
                        q.sessionMinutes = minutes
                        q.experience = experience
                        q.goals = [.strength]
                        q.equipment = gear
                        guard
                            let program = try? ProgramGenerator.generate(
                                library: Self.library, answers: q, split: split, seed: 7, style: .strengthBlock)
                        else { continue }
                        generated += 1
                        let setUp = "\(name), \(split.rawValue), \(experience.rawValue), \(minutes) min"
                        let all =
                            ProgramRubricTests.breaches(
                                program.sessions, q, split: split, repeatWarning: program.repeatWarning, style: .strengthBlock)
                            + Self.coachBreaches(program.sessions, q, split: split)
                            + (try Self.mesocycleBreaches(program.sessions, minutes: minutes))
                        for rule in all { broken[rule, default: (0, setUp)].count += 1 }
                    }
                }
            }
        }
        #expect(generated >= 130, "only \(generated) strength blocks generated for \(name)")
        let summary = broken.sorted { $0.value.count > $1.value.count }.prefix(12).map { "\($0.key) ×\($0.value.count) (\($0.value.first))" }
        #expect(broken.isEmpty, "\(broken.values.map(\.count).reduce(0, +)) breaches: \(summary.joined(separator: "; "))")
    }

    @Test("an intermediate's four days with a full gym: squat, bench, deadlift and press heavy once each, variations on the other days")
    func intermediateUpperLower() throws {
        var q = QuestionnaireAnswered()
        q.daysPerWeek = 4
        q.sessionMinutes = 60
        q.experience = .intermediate
        q.goals = [.strength]
        q.equipment = Equipment.allCases
        let program = try ProgramGenerator.generate(library: Self.library, answers: q, split: .upperLowerX2, seed: 7, style: .strengthBlock)
        let lines = program.sessions.flatMap { s in s.exercises.map { (s.name, Self.library.name(of: $0.exerciseId), $0) } }
        let heavy = lines.filter { ($0.2.repsMin, $0.2.repsMax) == (3, 5) }.map(\.1)
        #expect(Set(heavy) == ["Squat (Barbell)", "Deadlift (Barbell)", "Bench Press (Barbell)", "Overhead Press (Barbell)"], "\(heavy)")
        // Lower B's hinge is the lighter one, and the second squat and bench are variations at 6–8.
        let lowerB = lines.filter { $0.0 == "Lower B" }.map(\.1)
        #expect(lowerB.contains { $0.contains("Romanian") } && !lowerB.contains("Deadlift (Barbell)"), "\(lowerB)")
        #expect(!program.repeatWarning && Set(lines.map(\.1)).count == lines.count)
        #expect(program.sessions.allSatisfy { SessionTime.seconds($0) <= 60 * 60 })
        // The seed's program of the same answers keeps seed 001's prescription: 3 sets, the goal table, rests by rating.
        let seed = try ProgramGenerator.generate(library: Self.library, answers: q, split: .upperLowerX2, seed: 7)
        #expect(seed.sessions.flatMap(\.exercises).allSatisfy { $0.sets == 3 && [5, 6, 8].contains($0.repsMin) })
    }
}

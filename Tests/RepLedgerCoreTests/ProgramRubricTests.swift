import Foundation
import Testing

@testable import RepLedgerCore

/// docs/PROGRAMS.md's rubric, the checks a strength coach makes before
/// signing a program, held over the whole matrix: days 1–6 (every split) ×
/// experience × goals × the eight equipment sets × five session lengths.
/// The rubric's words are the test's own: it reads the library's movements
/// and names, not the generator's slots.
@Suite("programs: the coach's rubric over the whole matrix")
struct ProgramRubricTests {
    static let library = Ledger.seededLibrary
    static let lengths = [30, 45, 60, 90, 120]
    /// Goals choose rep ranges, never exercises (the matrix test holds that for programs existing), so three sets
    /// cover them: strength alone, the other two, and the pair the reported program asked for.
    static let goalSets: [[TrainingGoal]] = [[.strength], [.muscle, .fatLoss], [.strength, .muscle]]

    static let squats: Set<String> = ["squat", "machine-squat"]
    static let legPatterns: Set<String> = ["squat", "machine-squat", "lunge", "hip-hinge", "hip-hinge-ballistic"]
    static let presses: Set<String> = ["horizontal-press", "incline-press", "decline-press", "vertical-press", "dip"]
    static let pulls: Set<String> = ["horizontal-pull", "chest-supported-row", "vertical-pull"]

    struct Broken: CustomStringConvertible {
        var setUp: String
        var rule: String
        var description: String { "\(setUp): \(rule)" }
    }

    /// The rubric's breaches in one program.
    static func breaches(_ program: [ProgramSession], _ q: QuestionnaireAnswered, split: Split) -> [String] {
        var out: [String] = []
        let owned = Set(q.equipment).union([.bodyweight])
        let days = program.map { s in s.exercises.map { (e: $0, x: library.exercises[$0.exerciseId]!.definition) } }
        let week = days.flatMap { $0 }
        func has(_ day: [(e: ProgramExercise, x: ExerciseDefined)], _ movements: Set<String>) -> Bool {
            day.contains { movements.contains($0.x.canonicalMovement) }
        }
        // 1. A strength goal with a barbell, in a week with room for five lifts, trains the five.
        if q.goals.contains(.strength), owned.contains(.barbell), week.count >= 5 {
            if !has(week, squats) { out.append("no squat in the week") }
            let deadlift = week.contains {
                $0.x.canonicalMovement == "hip-hinge" && $0.x.name.contains("Deadlift") && !$0.x.name.contains("Romanian")
            }
            if !deadlift { out.append("no deadlift or trap-bar deadlift in the week") }
            if !has(week, ["horizontal-press", "incline-press", "decline-press"]) { out.append("no horizontal press in the week") }
            if !has(week, ["vertical-press"]) { out.append("no vertical press in the week") }
            if !has(week, pulls) { out.append("no row or pull-up in the week") }
        }
        for (session, day) in zip(program, days) {
            let lower = session.name.hasPrefix("Lower") || session.name.hasPrefix("Legs")
            let full = session.name.hasPrefix("Full Body")
            // 2. Every lower or full-body day has a squat or hinge pattern.
            if lower || full, !has(day, legPatterns) { out.append("\(session.name) has no squat or hinge pattern") }
            // 3. Every full-body day has a push, a pull and legs.
            if full {
                if !has(day, presses) { out.append("\(session.name) has no push") }
                if !has(day, pulls) { out.append("\(session.name) has no pull") }
            }
        }
        // 4. A three-day full body repeats its main movements: a squat, a press and a pull on two days or more.
        if split == .fullBodyX3 {
            for (what, movements) in [("squat", squats), ("press", presses), ("pull", pulls)] where has(week, movements) {
                if days.filter({ has($0, movements) }).count < 2 { out.append("no \(what) comes back within the week") }
            }
        }
        for (e, x) in week {
            // 5. No Olympic derivative or jump for a beginner; explosive work at low reps.
            if q.experience == .completeBeginner || q.experience == .beginner {
                if x.canonicalMovement.hasPrefix("olympic-") || x.canonicalMovement == "jump" || x.canonicalMovement == "throw"
                    || x.name.lowercased().contains("jump")
                {
                    out.append("\(x.name) for a beginner")
                }
            }
            let explosive = x.kind == .explosive || x.canonicalMovement.hasPrefix("olympic-") || x.canonicalMovement == "jump"
            if explosive && e.repsMax > 5 { out.append("\(x.name) explosive at \(e.repsMin)–\(e.repsMax) reps") }
            // 6. Nothing that needs equipment not given (a dip on the body alone needs bars: `other`).
            var needs = Set(x.equipment)
            if x.canonicalMovement == "dip" && needs == [.bodyweight] { needs.insert(.other) }
            if !needs.isSubset(of: owned) { out.append("\(x.name) needs \(needs.subtracting(owned).map(\.rawValue).sorted())") }
        }
        return out
    }

    @Test(
        "every generated program passes the rubric: days × experience × goals × session lengths, for each equipment set",
        arguments: ProgramMatrixTests.equipmentSets.map(\.name))
    func everyProgramPasses(equipment name: String) throws {
        let gear = try #require(ProgramMatrixTests.equipmentSets.first { $0.name == name }).gear
        var broken: [Broken] = []
        var generated = 0
        do {
            for days in 1...6 {
                for split in Split.options(days: days) {
                    for experience in ExperienceLevel.allCases {
                        for goals in Self.goalSets {
                            for minutes in Self.lengths {
                                var q = QuestionnaireAnswered()
                                q.daysPerWeek = days
                                q.sessionMinutes = minutes
                                q.experience = experience
                                q.goals = goals
                                q.equipment = gear
                                guard let program = try? ProgramGenerator.generate(library: Self.library, answers: q, split: split, seed: 7) else {
                                    continue
                                }
                                generated += 1
                                let setUp = "\(name), \(split.rawValue), \(experience.rawValue), \(goals.map(\.rawValue)), \(minutes) min"
                                broken += Self.breaches(program.sessions, q, split: split).map { Broken(setUp: setUp, rule: $0) }
                            }
                        }
                    }
                }
            }
        }
        // Each set-up generates for most of the matrix (the thin ones refuse some splits; docs/PROGRAMS.md lists them).
        #expect(generated >= 400, "only \(generated) programs generated for \(name)")
        // Grouped by rule, each with how often and its first set-up: a short message for a long matrix.
        var byRule: [(rule: String, count: Int, first: String)] = []
        for b in broken {
            if let i = byRule.firstIndex(where: { $0.rule == b.rule }) { byRule[i].count += 1 } else { byRule.append((b.rule, 1, b.setUp)) }
        }
        let breaches = broken.count
        #expect(breaches == 0, "\(breaches) breaches: \(byRule.prefix(12).map { "\($0.rule) ×\($0.count) (\($0.first))" }.joined(separator: "; "))")
    }

    @Test(
        "the reported programs: a full-gym beginner's strength and muscle program has the squat and the deadlift; dumbbells only has no dip and no clean"
    )
    func reportedPrograms() throws {
        var q = QuestionnaireAnswered()
        q.daysPerWeek = 3
        q.sessionMinutes = 60
        q.experience = .beginner
        q.goals = [.strength, .muscle]
        q.equipment = Equipment.allCases
        let full = try ProgramGenerator.generate(library: Self.library, answers: q, split: .fullBodyX3, seed: 1).sessions
        let names = Set(full.flatMap(\.exercises).compactMap { Self.library.exercises[$0.exerciseId]?.name })
        #expect(names.isSuperset(of: ["Squat (Barbell)", "Deadlift (Barbell)", "Bench Press (Barbell)", "Overhead Press (Barbell)"]), "\(names)")
        q.equipment = [.dumbbell]
        let dumbbells = try ProgramGenerator.generate(library: Self.library, answers: q, split: .fullBodyX3, seed: 1).sessions
        let picked = dumbbells.flatMap(\.exercises).compactMap { Self.library.exercises[$0.exerciseId]?.definition }
        #expect(!picked.contains { $0.canonicalMovement == "dip" || $0.canonicalMovement.hasPrefix("olympic-") }, "\(picked.map(\.name))")
        #expect(Self.breaches(dumbbells, q, split: .fullBodyX3).isEmpty)
    }
}

import Foundation
import Testing

@testable import RepLedgerCore

/// Every days 1–6 (each split of the day count) × experience × goal × the
/// eight common equipment sets, generated on the whole built-in library.
/// Each either succeeds or refuses naming the slot that fails and what
/// would fill it; the table of refusals is docs/PROGRAMS.md's, word for word
/// (`REPLEDGER_WRITE_DOCS=1` rewrites it after a deliberate change).
@Suite("programs: the generation matrix")
struct ProgramMatrixTests {
    static let library = Ledger.seededLibrary

    static let equipmentSets: [(name: String, gear: [Equipment])] = [
        ("full gym", Equipment.allCases),
        ("barbell + dumbbell + bench", [.barbell, .dumbbell, .bench]),
        ("dumbbells + bench", [.dumbbell, .bench]),
        ("dumbbells only", [.dumbbell]),
        ("bodyweight + pull-up bar", [.bodyweight, .pullUpBar]),
        ("bodyweight only", [.bodyweight]),
        ("kettlebells", [.kettlebell]),
        ("bands", [.band]),
    ]

    struct Outcome { var equipment: String; var split: Split; var experience: ExperienceLevel; var refusal: String? }

    static func run(minutes: Int = 60) -> [Outcome] {
        var out: [Outcome] = []
        for (name, gear) in equipmentSets {
            for days in 1...6 {
                for split in Split.options(days: days) {
                    for experience in ExperienceLevel.allCases {
                        var refusal: String?
                        for goal in TrainingGoal.allCases {
                            var q = QuestionnaireAnswered()
                            q.daysPerWeek = days
                            q.sessionMinutes = minutes
                            q.experience = experience
                            q.goals = [goal]
                            q.equipment = gear
                            do {
                                _ = try ProgramGenerator.generate(library: library, answers: q, split: split, seed: 7)
                                #expect(refusal == nil, "the goal changed whether \(split.rawValue) generates")
                            } catch {
                                refusal = "\(error)"
                            }
                        }
                        out.append(Outcome(equipment: name, split: split, experience: experience, refusal: refusal))
                    }
                }
            }
        }
        return out
    }

    static func table(_ outcomes: [Outcome]) -> String {
        var lines = ["| equipment | split | experience | why it refuses |", "| --- | --- | --- | --- |"]
        for o in outcomes {
            guard let r = o.refusal else { continue }
            let why = r.replacingOccurrences(of: ProgramGenerator.notEnoughMessage + ": ", with: "")
            lines.append("| \(o.equipment) | \(o.split.rawValue) | \(o.experience.rawValue) | \(why) |")
        }
        let refused = outcomes.filter { $0.refusal != nil }.count
        lines.append("")
        lines.append("\(outcomes.count - refused) of \(outcomes.count) combinations generate (each for every goal); \(refused) refuse.")
        return lines.joined(separator: "\n")
    }

    @Test("the common set-ups always get a program, every refusal names its slot and a remedy, and docs/PROGRAMS.md holds the table")
    func matrix() throws {
        let outcomes = Self.run()
        for o in outcomes where ["full gym", "barbell + dumbbell + bench", "dumbbells + bench"].contains(o.equipment) {
            #expect(o.refusal == nil, "\(o.equipment), \(o.split.rawValue), \(o.experience): \(o.refusal ?? "")")
        }
        for o in outcomes {
            guard let r = o.refusal else { continue }
            #expect(r.hasPrefix(ProgramGenerator.notEnoughMessage + ": "))
            #expect(r.contains(" slot"), "no slot named: \(r)")
            #expect(r.contains("would fill it") || r.contains("no equipment fills it"), "no remedy: \(r)")
        }
        // The many-day splits refuse only for the thinnest set-ups.
        let thin = Set(["bands", "kettlebells", "bodyweight only"])
        for o in outcomes where o.refusal != nil && o.experience != .completeBeginner {
            #expect(thin.contains(o.equipment), "\(o.equipment), \(o.split.rawValue), \(o.experience) refuses: \(o.refusal!)")
        }
        let table = Self.table(outcomes)
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/PROGRAMS.md")
        let begin = "<!-- matrix:begin -->\n", end = "\n<!-- matrix:end -->"
        var text = try String(contentsOf: docs, encoding: .utf8)
        let start = try #require(text.range(of: begin)), stop = try #require(text.range(of: end))
        if ProcessInfo.processInfo.environment["REPLEDGER_WRITE_DOCS"] == "1" {
            text.replaceSubrange(start.upperBound..<stop.lowerBound, with: table)
            try text.write(to: docs, atomically: true, encoding: .utf8)
        }
        #expect(String(text[start.upperBound..<stop.lowerBound]) == table, "docs/PROGRAMS.md's matrix is not what generation gives")
    }

    @Test(
        "a complete beginner's Push Pull Legs with the body and a pull-up bar: Pull keeps its length with one curl and a pull for the second biceps place"
    )
    func beginnerPullWithABar() throws {
        var q = QuestionnaireAnswered()
        q.experience = .completeBeginner
        q.equipment = [.bodyweight, .pullUpBar]
        for (days, split) in [(3, Split.pushPullLegs), (5, .pplUpperLower), (6, .pplX2)] {
            q.daysPerWeek = days
            let program = try ProgramGenerator.generate(library: Self.library, answers: q, split: split, seed: 1)
            let pull = try #require(program.sessions.first { $0.name.hasPrefix("Pull") })
            let xs = try pull.exercises.map { try #require(Self.library.exercises[$0.exerciseId]).definition }
            #expect(xs.count == 5, "\(xs.map(\.name))")
            #expect(xs.filter { $0.primaryMuscles.contains(.biceps) }.count == 1, "\(xs.map(\.name))")
            #expect(xs.allSatisfy { $0.primaryMuscles.contains { [.back, .lats, .biceps, .traps].contains($0) } }, "\(xs.map(\.name))")
            #expect(xs.allSatisfy { $0.complexity <= 1 } && Set(xs.map(\.canonicalMovement)).count == xs.count)
        }
    }

    @Test("the first-release failures now generate: --help's example, a complete beginner's PPL, and no odd picks")
    func reportedCases() throws {
        var q = QuestionnaireAnswered()
        q.daysPerWeek = 3
        q.equipment = [.barbell, .dumbbell, .bench]
        q.experience = .beginner
        for split in Split.options(days: 3) {
            _ = try ProgramGenerator.generate(library: Self.library, answers: q, split: split, seed: 1)
        }
        q.experience = .completeBeginner
        q.equipment = Equipment.allCases
        for days in 3...6 {
            q.daysPerWeek = days
            for split in Split.options(days: days) {
                let program = try ProgramGenerator.generate(library: Self.library, answers: q, split: split, seed: 1).sessions
                for session in program where session.name.hasPrefix("Upper") || session.name.hasPrefix("Push") || session.name.hasPrefix("Pull") {
                    for e in session.exercises {
                        let x = try #require(Self.library.exercises[e.exerciseId]).definition
                        #expect(!LibraryDerivation.lowerBodyMovements.contains(x.canonicalMovement), "\(x.name) on \(session.name)")
                    }
                }
            }
        }
        q.daysPerWeek = 4
        q.experience = .advanced
        q.priorityMuscles = [.glutes]
        for seed in 0..<20 {
            let program = try ProgramGenerator.generate(library: Self.library, answers: q, split: .upperLowerX2, seed: UInt64(seed)).sessions
            let kinds = program.flatMap(\.exercises).compactMap { Self.library.exercises[$0.exerciseId]?.definition }
            #expect(!kinds.contains { $0.kind == .explosive && !$0.primaryMuscles.contains(.glutes) && $0.secondaryMuscles.contains(.glutes) })
        }
    }

    @Test(
        "session length shapes the session: 3, 4, the template, +2 and +3 exercises",
        arguments: [
            (30, 3), (45, 4), (60, 0), (90, 2), (120, 3),
        ])
    func sessionLength(minutes: Int, expected: Int) throws {
        for split in Split.allCases {
            let hour = SlotTemplates.sessions(split)
            let shaped = SlotTemplates.sessions(split, minutes: minutes)
            for (h, s) in zip(hour, shaped) {
                let want = minutes <= 50 ? expected : h.slots.count + expected
                #expect(s.slots.count == want, "\(s.name) at \(minutes) minutes")
                #expect(Array(s.slots.prefix(min(want, h.slots.count))) == Array(h.slots.prefix(min(want, h.slots.count))))
            }
        }
        var q = QuestionnaireAnswered()
        q.daysPerWeek = 3
        q.sessionMinutes = minutes
        q.experience = .intermediate
        q.equipment = Equipment.allCases
        let program = try ProgramGenerator.generate(library: Self.library, answers: q, split: .pushPullLegs, seed: 3).sessions
        for (p, s) in zip(program, SlotTemplates.sessions(.pushPullLegs, minutes: minutes)) {
            #expect(p.exercises.count == s.slots.count)
        }
    }

    @Test("a refusal names the slots that really fail and the equipment that would fill them")
    func blockerNamesTheSlot() {
        var q = QuestionnaireAnswered()
        q.daysPerWeek = 3
        q.experience = .completeBeginner
        q.equipment = [.bodyweight]
        #expect(
            throws: Refusal.invalidProgram(
                ProgramGenerator.notEnoughMessage + ": the 2 biceps slots of Pull need 2 different movements, "
                    + "and your equipment gives them only elbow-flexion (cable, dumbbell or band would fill it)")
        ) {
            try ProgramGenerator.generate(library: Self.library, answers: q, split: .pushPullLegs, seed: 1)
        }
        q.equipment = [.bodyweight, .band]
        #expect(throws: Never.self) { try ProgramGenerator.generate(library: Self.library, answers: q, split: .pushPullLegs, seed: 1) }
        // A slot nothing can fill: calves with nothing but kettlebells and the body, at a complete beginner's level.
        var lib = LibraryState()
        for e in Ledger.seedEvents {
            if case .exerciseDefined(let x) = e.event, !(x.primaryMuscles + x.secondaryMuscles).contains(.calves) { lib.evolve(e.event) }
        }
        q.equipment = Equipment.allCases
        q.experience = .advanced
        do {
            _ = try ProgramGenerator.generate(library: lib, answers: q, split: .pushPullLegs, seed: 1)
            Issue.record("a Legs day without a calf exercise generated")
        } catch {
            #expect(
                "\(error)".hasSuffix("no exercise you can do fills the calves slot of Legs (no equipment fills it at your experience level)"),
                "\(error)")
        }
    }
}

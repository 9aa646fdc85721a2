import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerExport

@Suite("Garmin's exercise categories for every exercise")
struct GarminExerciseCategoryTests {
    @Test("every movement pattern of the built-in library is in the table, so every library exercise maps by it")
    func everyLibraryExerciseMaps() throws {
        let library = try MemoryLedger().ledger.library()
        let builtIn = library.exercises.values.map(\.definition).filter { !$0.custom }
        #expect(builtIn.count == 888)
        let missing = Set(builtIn.map(\.canonicalMovement)).subtracting(GarminExerciseCategory.byMovement.keys)
        #expect(missing.isEmpty, "movements without a category: \(missing.sorted())")
        // And the table names no pattern the library lacks (a renamed pattern would leave a dead line).
        let unused = Set(GarminExerciseCategory.byMovement.keys).subtracting(builtIn.map(\.canonicalMovement))
        #expect(unused.isEmpty, "\(unused.sorted())")
    }

    @Test("each category is one Garmin documents, by its number and name in the FIT profile")
    func documentedCategories() {
        let profile: [UInt16: String] = [
            0: "bench_press", 1: "calf_raise", 2: "cardio", 3: "carry", 4: "chop", 5: "core", 6: "crunch", 7: "curl", 8: "deadlift",
            9: "flye", 10: "hip_raise", 11: "hip_stability", 12: "hip_swing", 13: "hyperextension", 14: "lateral_raise",
            15: "leg_curl", 16: "leg_raise", 17: "lunge", 18: "olympic_lift", 19: "plank", 20: "plyo", 21: "pull_up", 22: "push_up",
            23: "row", 24: "shoulder_press", 25: "shoulder_stability", 26: "shrug", 27: "sit_up", 28: "squat", 29: "total_body",
            30: "triceps_extension", 31: "warm_up", 32: "run", 33: "bike", 39: "elliptical", 42: "indoor_row", 45: "sled",
            47: "stair_stepper",
        ]
        for c in GarminExerciseCategory.allCases { #expect(profile[c.rawValue] == c.fitName, "\(c)") }
        #expect(!GarminExerciseCategory.allCases.contains { $0.rawValue == 65534 })
    }

    @Test("an imported exercise is placed by the words of its name, at the start of a word; else by its muscle")
    func byName() {
        func category(_ name: String, _ muscle: Muscle = .fullBody) -> GarminExerciseCategory {
            var e = ExerciseDefined()
            e.name = name
            e.canonicalMovement = Slug.make(name)
            e.primaryMuscles = [muscle]
            return GarminExerciseCategory.of(e)
        }
        #expect(category("Cable Crunch") == .crunch)  // not a run
        #expect(category("Walking Lunge (Dumbbell)") == .lunge)  // not a walk
        #expect(category("Seated Leg Curl (Machine)") == .legCurl)
        #expect(category("Hammer Curls") == .curl)
        #expect(category("sled back peddle pull") == .sled)
        #expect(category("Farmer's Walk") == .carry)
        #expect(category("Crossover") == .flye)
        #expect(category("Running (Treadmill)") == .run)
        #expect(category("Rowing Machine") == .indoorRow)
        #expect(category("Supino Reto", .chest) == .benchPress)
        #expect(category("Wibble") == .totalBody)
    }
}

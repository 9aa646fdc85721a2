import Foundation
import LedgerTestSupport
import RepLedgerProjections
import Testing

@testable import RepLedgerCore
@testable import RepLedgerImport

@Suite("Hevy and FitNotes import")
struct HevyFitNotesImportTests {
    static let hevy = """
        "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_lbs","reps","distance_miles","duration_seconds","rpe"
        "Afternoon workout 💪","3 Sep 2025, 01:03","3 Sep 2025, 01:50","","Bench Press (Barbell)",0,"Failed 265, 225 long pauses",0,"warmup",135,10,,,
        "Afternoon workout 💪","3 Sep 2025, 01:03","3 Sep 2025, 01:50","","Bench Press (Barbell)",0,"Failed 265, 225 long pauses",1,"normal",225,5,,,8.5
        "Afternoon workout 💪","3 Sep 2025, 01:03","3 Sep 2025, 01:50","","Pull Up",0,"",0,"normal",,8,,,
        "Afternoon workout 💪","3 Sep 2025, 01:03","3 Sep 2025, 01:50","","Pull Up",0,"",1,"dropset",,6,,,
        "Afternoon workout 💪","3 Sep 2025, 01:03","3 Sep 2025, 01:50","","Treadmill",,"no idea but it was 3MPH",0,"normal",,,,1800,
        "Lower","2 Sep 2025, 23:13","3 Sep 2025, 00:40","linha 1\\nlinha 2","Squat (Barbell)",,"",0,"failure",315,3,,,
        "Lower","2 Sep 2025, 23:13","3 Sep 2025, 00:40","linha 1\\nlinha 2","Squat (Barbell)",,"",0,"failure",315,3,,,
        """

    @Test("Hevy: newest first in the file, oldest first in the ledger; set types, supersets, cardio, lb, crossing midnight")
    func hevy() throws {
        let t = try MemoryLedger()
        let s = try t.importCSV(.hevy, Self.hevy)
        #expect(s.unit == .lb)
        // Lower's two identical one-set blocks of one exercise are two real sets (the set index restarts
        // with each block): only a run of several exercises written twice is an export duplicate.
        #expect((s.workouts, s.sets, s.skipped.total) == (2, 7, 0))
        let rows = try t.history()
        #expect(rows.map(\.name) == ["Lower", "Afternoon workout 💪"])
        #expect(rows[0].notes == "linha 1\nlinha 2")
        #expect(rows[0].durationSeconds == Int64(87 * 60))
        #expect(rows[0].startedAt.iso8601 == "2025-09-02T23:13:00Z")
        #expect(rows[0].exercises.map { $0.sets.map(\.type) } == [[.failure], [.failure]])
        let bench = rows[1].exercises[0]
        #expect(bench.sets.map(\.type) == [.warmup, .normal])
        #expect(bench.sets[1].metrics == SetMetrics(weight: Weight(225, .lb), reps: 5, rpe: 8.5))
        #expect(rows[1].exercises.first { $0.exercise == "Treadmill" }?.sets[0].metrics == SetMetrics(durationSeconds: 1800))
        let lastId = try #require(rows.last?.workoutId)
        let state = try #require(try t.fold().workouts[lastId])
        let linked = state.entries.filter { $0.supersetId != nil }
        #expect(linked.map(\.exerciseId) == ["barbell-bench-press", "pull-up"])
        #expect(state.entries[0].note == "Failed 265, 225 long pauses")
    }

    @Test("FitNotes: names with unquoted commas are repaired from the right; a day is a workout; kgs unit column")
    func fitnotesNewer() throws {
        let t = try MemoryLedger()
        let csv = """
            Date,Exercise,Category,Weight,Weight Unit,Reps,Distance,Distance Unit,Time
            2025-04-29,Overhead Press (Each Side, Dumbbells),Shoulders,8.0,kgs,12,,,
            2025-04-29,Lat Pulldown,Back,40.0,kgs,10,,,
            2025-04-29,Overhead Press (Each Side, Dumbbells),Shoulders,8.0,kgs,12,,,
            2025-04-30,Lat Pulldown,Back,42.5,kgs,10,,,
            """
        let s = try t.importCSV(.fitnotes, csv)
        #expect((s.workouts, s.sets, s.skipped.total) == (2, 4, 0))
        let rows = try t.history()
        #expect(rows.map(\.name) == ["Shoulders & Back", "Back"])
        let press = try #require(rows[0].exercises.first { $0.exercise == "Overhead Press (Each Side, Dumbbells)" })
        #expect(press.sets.count == 2)  // identical rows are real repeated sets: the format has no set number
        #expect(try t.fold().library.exercises[press.exerciseId]?.definition.primaryMuscles == [.shoulders])
    }

    @Test("FitNotes older layout: unit in the header, cardio with distance and H:MM:SS, nonsense units ignored")
    func fitnotesOlder() throws {
        let t = try MemoryLedger()
        let csv = """
            Date,Exercise,Category,Weight (lbs),Reps,Distance,Distance Unit,Time
            2017-06-23,Pushups,Chest,0.0,22,,,
            2017-06-23,Running (Treadmill),Cardio,,,1.23,mi,0:09:21
            2017-06-23,Side Plank,Abs,,,0.0,kg,0:00:00
            """
        let s = try t.importCSV(.fitnotes, csv)
        #expect(s.unit == .lb)
        #expect((s.workouts, s.sets, s.skipped.byReason) == (1, 2, ["set without weight, reps, time or distance": 1]))
        let w = try #require(try t.history().first)
        #expect(
            w.exercises.first { $0.exercise == "Running (Treadmill)" }?.sets[0].metrics
                == SetMetrics(durationSeconds: 561, distanceMeters: 1.23 * 1609.344))
        // "Pushups" is the library's Push Up under another name: the set joins it.
        #expect(w.exercises.first { $0.exercise == "Push Up" }?.sets[0].metrics == SetMetrics(reps: 22))
    }
}

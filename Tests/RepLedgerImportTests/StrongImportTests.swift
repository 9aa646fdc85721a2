import Foundation
import LedgerTestSupport
import RepLedgerProjections
import Testing

@testable import RepLedgerCore
@testable import RepLedgerImport

@Suite("Strong import: layouts and quirks")
struct StrongImportTests {
    @Test("2016 layout: CRLF, kg and km in the header, 0-based set order, timed sets")
    func oldest() throws {
        let t = try MemoryLedger()
        let csv =
            "Date,Workout Name,Exercise Name,Set Order,kg,Reps,km,Seconds,Notes\r\n"
            + "2016-10-03 19:30:55,\"W1D1\",\"Squat (Barbell)\",0,70.0,5,0.0,0,\"\"\r\n"
            + "2016-10-03 19:30:55,\"W1D1\",\"Squat (Barbell)\",1,72.5,5,0.0,0,\"\"\r\n"
            + "2016-10-03 19:30:55,\"W1D1\",\"Plank Fitball\",0,0.0,0,0.0,60,\"\"\r\n"
        let s = try t.importCSV(.strong, csv)
        #expect(s.layout.hasPrefix("Strong 2016"))
        #expect((s.workouts, s.sets, s.exercisesCreated) == (1, 3, ["Plank Fitball"]))
        let w = try #require(try t.history().first)
        #expect(w.name == "W1D1")
        #expect(w.startedAt == .at("2016-10-03T19:30:55Z"))
        let squat = try #require(w.exercises.first { $0.exerciseId == "back-squat" })
        #expect(squat.sets.map(\.weightKg) == [70, 72.5])
        let plank = try #require(w.exercises.first { $0.exercise == "Plank Fitball" })
        #expect(plank.sets[0].metrics == SetMetrics(durationSeconds: 60))
        let log = try t.fold()
        #expect(log.library.exercises["plank-fitball"]?.definition.kind == .isometric)
    }

    @Test("12-column layout: W/D/F and Rest Timer rows, float noise, durations, literal \\n and doubled quotes in notes")
    func legacy() throws {
        let t = try MemoryLedger()
        let csv = """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2021-03-01 18:00:00," Push #1",1h 2m,"Bench Press (Barbell) ",W,45.0,10.0,0,0.0,"3x 8-10 RPE7","Felt ""long arms"", close.\\nTry 225 next",
            2021-03-01 18:00:00," Push #1",1h 2m,"Bench Press (Barbell) ",1,185.00000000000003,5.0,0,0.0,,,8.5
            2021-03-01 18:00:00," Push #1",1h 2m,"Bench Press (Barbell) ",Rest Timer,0,0.0,0,120.0,,,
            2021-03-01 18:00:00," Push #1",1h 2m,"Bench Press (Barbell) ",2,149.99999999999997,8.0,0,0.0,,,
            2021-03-01 18:00:00," Push #1",1h 2m,"Bench Press (Barbell) ",D,95.0,12.0,0,0.0,,,
            2021-03-01 18:00:00," Push #1",1h 2m,"Bench Press (Barbell) ",F,95.0,6.0,0,0.0,,,
            2021-03-01 18:00:00," Push #1",1h 2m,"Running (Treadmill)",1,0,0.0,1.0,600.0,"run",,
            """
        let s = try t.importCSV(.strong, csv, unit: .lb)
        #expect((s.workouts, s.sets, s.restFacts, s.skipped.total) == (1, 6, 1, 0))
        let w = try #require(try t.history().first)
        #expect(w.name == "Push #1")
        #expect(w.durationSeconds == 3720)
        #expect(w.notes == "Felt \"long arms\", close.\nTry 225 next")
        let bench = try #require(w.exercises.first { $0.exerciseId == "barbell-bench-press" })
        #expect(bench.sets.map(\.type) == [.warmup, .normal, .normal, .drop, .failure])
        #expect(bench.sets.map { $0.metrics.weight } == [45, 185, 150, 95, 95].map { Weight($0, .lb) })
        #expect(bench.sets[1].rpe == 8.5)
        let run = try #require(w.exercises.first { $0.exerciseId == "running-treadmill" })
        // Legacy Strong writes distance in the unit system of the weights: miles here.
        #expect(run.sets[0].metrics == SetMetrics(durationSeconds: 600, distanceMeters: 1609.344))
        let state = try #require(try t.fold().workouts.values.first)
        #expect(state.entries.first?.note == "3x 8-10 RPE7")
        #expect(state.rests.last?.plannedSeconds == 120)
    }

    @Test("current layout: ; and quoted everything, WARM_UP/FAILURE, newlines in quotes, exact lb conversions kept as lb")
    func current() throws {
        let t = try MemoryLedger()
        let csv =
            "\"Workout #\";\"Date\";\"Workout Name\";\"Duration (sec)\";\"Exercise Name\";\"Set Order\";\"Weight (kg)\";\"Reps\";\"RPE\";\"Distance (meters)\";\"Seconds\";\"Notes\";\"Workout Notes\"\n"
            + "\"1\";\"2020-01-20 11:43:41\";\"Hypertrophy 1 \";\"3324\";\"Push Up\";\"1\";\"65.181223569\";\"8\";\"\";\"\";\"\";\"\";\"First week:\nsame load\"\n"
            + "\"1\";\"2020-01-20 11:43:41\";\"Hypertrophy 1 \";\"3324\";\"Lateral Raise (Cable)\";\"WARM_UP\";\"2.2679618500000003\";\"12\";\"\";\"\";\"\";\"\";\"First week:\nsame load\"\n"
            + "\"1\";\"2020-01-20 11:43:41\";\"Hypertrophy 1 \";\"3324\";\"Lateral Raise (Cable)\";\"1\";\"71.32500457763672\";\"9\";\"7.5\";\"\";\"\";\"\";\"First week:\nsame load\"\n"
            + "\"1\";\"2020-01-20 11:43:41\";\"Hypertrophy 1 \";\"3324\";\"Lateral Raise (Cable)\";\"FAILURE\";\"\";\"\";\"\";\"\";\"\";\"\";\"First week:\nsame load\""
        let s = try t.importCSV(.strong, csv)
        #expect(s.layout.hasPrefix("Strong current"))
        #expect((s.workouts, s.sets, s.skipped.byReason) == (1, 3, ["set without weight, reps, time or distance": 1]))
        #expect(s.skipped.firstLines["set without weight, reps, time or distance"] == [8])  // the header, then three rows of two lines each
        let w = try #require(try t.history().first)
        #expect(w.notes == "First week:\nsame load")
        #expect(w.durationSeconds == 3324)
        let sets = w.exercises.flatMap(\.sets)
        #expect(sets.map { $0.metrics.weight } == [Weight(143.7, .lb), Weight(5, .lb), Weight(71.325, .kg)])
        #expect(sets.map(\.type) == [.normal, .warmup, .normal])
    }

    @Test("10-column layout with a French header and the É warm-up marker; 2017 layout with padded names and a workout written twice")
    func localisedAndDuplicates() throws {
        let t = try MemoryLedger()
        let french = """
            Date,Nom de l'entraînement,Durée,Nom de l'exercice,Ordre de la série,Poids,Réps,Distance,Secondes,RPE
            2026-04-08 12:57:57,"Entraînement du midi",9min,"Pec Deck (Machine)",É,20.0,10.0,0,0.0,
            2026-04-08 12:57:57,"Entraînement du midi",9min,"Pec Deck (Machine)",1,32.0,10.0,0,0.0,
            """
        let f = try t.importCSV(.strong, french, unit: .kg)
        #expect(f.layout == "Strong 10-column (no notes), French header")
        let w = try #require(try t.history().first)
        #expect(w.durationSeconds == 540)
        #expect(w.exercises[0].sets.map(\.type) == [.warmup, .normal])

        let older = """
            Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes
            2018-11-19 16:09:09,"Afternoon Workout","Squat (Barbell)",1,40,6,0,0,"",""
            2018-11-19 16:09:09,"Afternoon Workout","Squat (Barbell)",2,60,3,0,0,"",""
            2018-11-19 16:09:09,"Afternoon Workout","Total Abdominal ",1,0,20,0,0,"",""
            2018-11-19 16:09:09,"Afternoon Workout","Squat (Barbell)",1,40,6,0,0,"",""
            2018-11-19 16:09:09,"Afternoon Workout","Squat (Barbell)",2,60,3,0,0,"",""
            2018-11-19 16:09:09,"Afternoon Workout","Total Abdominal ",1,0,20,0,0,"",""
            """
        let o = try t.importCSV(.strong, older, unit: .kg)
        let copy = "the workout is written again in the file (an export duplicate)"
        #expect((o.workouts, o.sets, o.skipped.byReason, o.skipped.firstLines[copy]) == (1, 3, [copy: 3], [5, 6, 7]))
        #expect(o.exercisesCreated == ["Total Abdominal"])
        #expect(try t.fold().library.exercises["total-abdominal"]?.definition.primaryMuscles == [.abs])
    }
}

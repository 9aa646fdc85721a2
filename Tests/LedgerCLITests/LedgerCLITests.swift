import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerSQLite
import Testing

@Suite("ledger CLI", .serialized)
struct LedgerCLITests {
    @Test("a workout from start to finish, as a script records it")
    func workoutEndToEnd() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let start = try cli.run(["workout", "start", "--name", "Upper A", "--at", "2026-11-02T07:00:00+01:00", "--json"])
        #expect(start.status == 0)
        let w = try #require(start.json?["workoutId"] as? String)

        let first = try cli.run([
            "workout", "log", w, "Bench Press (Barbell)", "--reps", "5", "--weight", "100",
            "--rpe", "8.5", "--at", "2026-11-02T07:10:00+01:00", "--json",
        ])
        #expect(first.status == 0)
        let setId = try #require(first.json?["setId"] as? String)
        #expect(
            try cli.run([
                "workout", "log", String(w.prefix(8)), "bench press (barbell)", "--reps", "8",
                "--weight", "135lb", "--type", "warmup", "--at", "2026-11-02T07:05:00+01:00",
            ]).status == 0)
        #expect(
            try cli.run(["workout", "log", "last", "leg-press", "--reps", "10", "--weight", "160kg", "--at", "2026-11-02T07:30:00+01:00"]).status == 0
        )
        #expect(try cli.run(["workout", "swap", w, "leg-press", "hack-squat"]).status == 0)
        #expect(try cli.run(["workout", "log", w, "hack-squat", "--reps", "10", "--weight", "100", "--at", "2026-11-02T07:45:00+01:00"]).status == 0)
        #expect(try cli.run(["workout", "edit-set", w, String(setId.prefix(8)), "--reps", "6"]).status == 0)
        #expect(try cli.run(["workout", "finish", w, "--at", "2026-11-02T08:05:00+01:00"]).status == 0)

        let history = try #require(try cli.run(["history", "--json"]).json)
        let workouts = try #require(history["workouts"] as? [[String: Any]])
        #expect(workouts.count == 1)
        let row = workouts[0]
        #expect(row["workoutId"] as? String == w)
        #expect(row["name"] as? String == "Upper A")
        #expect(row["startedAt"] as? String == "2026-11-02T07:00:00+01:00")
        #expect(row["finishedAt"] as? String == "2026-11-02T08:05:00+01:00")
        #expect(row["sets"] as? Int == 3)  // the warm-up is listed but not counted
        #expect(row["tonnageKg"] as? Double == 3200)  // 100 × 6 + 160 × 10 + 100 × 10
        let exercises = try #require(row["exercises"] as? [[String: Any]])
        #expect(exercises.map { $0["exercise"] as? String } == ["Bench Press (Barbell)", "Leg Press (Machine)", "Hack Squat (Machine)"])
        // In the order they were done: the warm-up (07:05) before the working set (07:10), though logged after it.
        let benchSets = try #require(exercises[0]["sets"] as? [[String: Any]])
        #expect(benchSets.map { $0["type"] as? String } == ["warmup", "normal"])
        #expect(benchSets[1]["reps"] as? Int == 6)
        #expect(benchSets[1]["rpe"] as? Double == 8.5)
        #expect(benchSets[1]["setId"] as? String == setId)
        #expect(benchSets[0]["weightKg"] as? Double == 135 * 0.45359237)

        // `workout show` agrees with history: the set logged before the swap stays Leg Press's.
        let show = try #require(try cli.run(["workout", "show", w, "--json"]).json?["exercises"] as? [[String: Any]])
        let swapped = try #require(show.first { $0["exercise"] as? String == "Hack Squat (Machine)" })
        #expect((swapped["sets"] as? [[String: Any]])?.map { $0["weightKg"] as? Double } == [100])
        let out = try #require((swapped["swappedOut"] as? [[String: Any]])?.first)
        #expect(out["exercise"] as? String == "Leg Press (Machine)")
        #expect((out["sets"] as? [[String: Any]])?.map { $0["weightKg"] as? Double } == [160])
        let text = try cli.run(["workout", "show", w]).stdout
        #expect(text.contains("Leg Press (Machine), swapped out:\n   #1 ") && text.contains("160 kg × 10"), "\(text)")

        // Deleting the set is a new event; history follows.
        #expect(try cli.run(["workout", "delete-set", w, setId, "--history-edit"]).status == 0)
        let after = try #require(try cli.run(["history", "--json"]).json?["workouts"] as? [[String: Any]])
        #expect(after[0]["sets"] as? Int == 2)

        // The log is JSON Lines with the contract's keys, and the chain verifies.
        let lines = try cli.run(["log", "--json", "--stream", "workout-\(w)"]).stdout.split(separator: "\n")
        let keys = [
            "position", "eventId", "stream", "version", "type", "schema", "occurredAt", "recordedAt", "device",
            "payload", "hash",
        ]
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(keys.allSatisfy { object[$0] != nil })
        }
        #expect(lines.count == 11)  // start, 2 entries added, 4 sets, swap, edit, finish, delete
        let verify = try cli.run(["verify", "--json"])
        #expect(verify.status == 0)
        #expect(verify.json?["ok"] as? Bool == true)
        #expect(verify.json?["firstBadPosition"] is NSNull)
    }

    static let refusals: [[String]] = [
        ["--reps", "5", "--weight", "-5"],
        ["--reps", "5", "--weight", "nan"],
        ["--reps", "5", "--weight", "inf"],
        ["--reps", "5", "--weight", "1000.5"],
        ["--reps", "5", "--weight", "2205lb"],
        ["--reps", "-1"],
        ["--reps", "1001"],
        ["--reps", "5", "--rpe", "11"],
        ["--reps", "5", "--rpe", "7.3"],
        ["--reps", "5", "--weight", "80stone"],
        ["--reps", "5", "--type", "superset"],
    ]

    @Test("bad set values exit 1 with one error line and append nothing", arguments: refusals)
    func refusedValues(args: [String]) throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start"]).status == 0)
        let before = try cli.eventCount()
        let result = try cli.run(["workout", "log", "last", "deadlift"] + args)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stdout.isEmpty)
        #expect(try cli.eventCount() == before)
    }

    @Test("unknown exercises and workouts, and closed workouts, are refused with exit 1")
    func refusedTargets() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start"]).status == 0)
        let before = try cli.eventCount()
        let unknownExercise = try cli.run(["workout", "log", "last", "Bench Pres", "--reps", "5"])
        #expect(unknownExercise.status == 1)
        #expect(unknownExercise.stderr.contains("ledger exercise list"))
        #expect(try cli.run(["workout", "log", "0000dead", "deadlift", "--reps", "5"]).status == 1)
        #expect(try cli.eventCount() == before)

        #expect(try cli.run(["workout", "finish", "last"]).status == 0)
        let closed = try cli.run(["workout", "log", "last", "deadlift", "--reps", "5"])
        #expect(closed.status == 1)
        #expect(closed.stderr.contains("--history-edit"))
        #expect(try cli.run(["workout", "discard", "last"]).status == 0)
        let count = try cli.eventCount()
        #expect(try cli.run(["workout", "log", "last", "deadlift", "--reps", "5", "--history-edit"]).status == 1)
        #expect(try cli.eventCount() == count)
    }

    @Test(
        "usage errors exit 2",
        arguments: [
            ["workout", "fly"], ["workout", "log", "last"], ["history", "--month", "2026-13"], ["log", "--type", "SetLoged"],
            ["--no-such-flag"],
        ])
    func usageErrors(args: [String]) throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(args).status == 2)
    }

    @Test("verify exits 3 and names the first bad position of a tampered file")
    func tamperedFile() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start"]).status == 0)
        #expect(try cli.run(["workout", "log", "last", "deadlift", "--reps", "5", "--weight", "200"]).status == 0)
        let target = try cli.eventCount()  // the SetLogged event is the last one
        let db = try SQLiteDatabase(path: cli.db)
        try db.execute("DROP TRIGGER events_no_update")
        try db.execute("UPDATE events SET payload = CAST(replace(CAST(payload AS TEXT), 'deadlift', 'deadlifx') AS BLOB) WHERE position = \(target)")
        let verify = try cli.run(["verify", "--json"])
        #expect(verify.status == 3)
        #expect(verify.json?["ok"] as? Bool == false)
        #expect(verify.json?["firstBadPosition"] as? Int == target)
        #expect(verify.stderr.hasPrefix("error: "))
    }

    @Test("a file that is not a ledger exits 4")
    func storageFailure() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: cli.db))
        let result = try cli.run(["history"])
        #expect(result.status == 4)
        #expect(result.stderr.hasPrefix("error: "))
    }

    @Test("demo twice: the second run appends nothing and the log is byte-identical")
    func demoTwice() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let first = try cli.run(["demo"])
        #expect(first.status == 0)
        #expect(first.stdout.contains("Appended"))
        let log1 = try cli.run(["log", "--json"]).stdout
        let second = try cli.run(["demo", "--json"])
        #expect(second.status == 0)
        #expect(second.json?["appended"] as? Int == 0)
        #expect(second.json?["verified"] as? Bool == true)
        #expect(second.json?["workouts"] as? Int == 44)
        let log2 = try cli.run(["log", "--json"]).stdout
        #expect(log1 == log2)
        #expect(!log1.isEmpty)
        #expect(try cli.run(["verify"]).status == 0)
    }

    @Test("--as-of answers as the log stood at a position or a time")
    func asOf() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start", "--name", "Early"]).status == 0)
        let cut = try cli.eventCount()
        // Milliseconds matter: the cut falls between two commands run in quick succession.
        waitForTheNextMillisecond()
        let before = Timestamp.now().iso8601
        waitForTheNextMillisecond()
        #expect(try cli.run(["workout", "log", "last", "deadlift", "--reps", "5", "--weight", "100"]).status == 0)
        #expect(try cli.run(["workout", "finish", "last"]).status == 0)
        let then = try #require(try cli.run(["history", "--json", "--as-of", "\(cut)"]).json?["workouts"] as? [[String: Any]])
        #expect(then.count == 1)
        #expect(then[0]["finishedAt"] is NSNull)
        #expect(then[0]["sets"] as? Int == 0)
        let byTime = try #require(try cli.run(["history", "--json", "--as-of", before]).json?["workouts"] as? [[String: Any]])
        #expect(byTime.first?["sets"] as? Int == 0)
        let now = try #require(try cli.run(["history", "--json"]).json?["workouts"] as? [[String: Any]])
        #expect(now[0]["sets"] as? Int == 1)
    }

    @Test("$REPLEDGER_DB names the file when --db is absent; exercises add and list")
    func environmentDatabase() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let env = ["REPLEDGER_DB": cli.db]
        let add = try cli.run(
            ["exercise", "add", "Zercher Squat", "--muscle", "quads", "--equipment", "barbell", "--json"],
            env: env, useDbFlag: false)
        #expect(add.status == 0)
        #expect(add.json?["exerciseId"] as? String == "zercher-squat")
        #expect(try cli.run(["exercise", "add", "zercher squat", "--muscle", "quads"], env: env, useDbFlag: false).status == 1)
        #expect(try cli.run(["exercise", "add", "Sissy Squat", "--muscle", "quadz"], env: env, useDbFlag: false).status == 1)
        let list = try #require(try cli.run(["exercise", "list", "--json"]).json?["exercises"] as? [[String: Any]])
        #expect(list.count == Ledger.seededLibrary.exercises.count + 1, "the seeded library and the one added")
        let zercher = try #require(list.first { $0["exerciseId"] as? String == "zercher-squat" })
        #expect(zercher["name"] as? String == "Zercher Squat")
        #expect(zercher["muscle"] as? String == "quads")
        #expect(zercher["kind"] as? String == "strength")
        #expect(!FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("repledger.sqlite").path))
    }
}

@Suite("ledger log filters", .serialized)
struct LedgerLogFilterTests {
    @Test("log filters by stream, type and recorded time")
    func filters() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start"]).status == 0)
        waitForTheNextMillisecond()
        let cut = Timestamp.now().iso8601
        waitForTheNextMillisecond()
        #expect(try cli.run(["workout", "log", "last", "deadlift", "--reps", "5", "--weight", "140"]).status == 0)
        func types(_ args: [String]) throws -> [String] {
            try cli.run(["log", "--json"] + args).stdout.split(separator: "\n").map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return object?["type"] as? String ?? "?"
            }
        }
        #expect(try types(["--since", cut]) == ["WorkoutExerciseAdded", "SetLogged"])
        #expect(try types(["--until", cut]).last == "WorkoutStarted")
        #expect(try types(["--type", "SetLogged"]) == ["SetLogged"])
        #expect(try types(["--stream", "library"]).count == Ledger.seedEvents.count)
        #expect(try cli.run(["log", "--since", "last tuesday"]).status == 1)
    }
}

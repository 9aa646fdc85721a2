import Foundation
import LedgerTestSupport
import Testing

/// Issue 74's `log --touching exercise|workout|set ID`: every event that
/// touched one thing, through edits, swaps, moves and merges.
@Suite("ledger log --touching")
struct LogTouchingCLITests {
    /// The positions and types `log --json` prints for these arguments.
    static func events(_ cli: LedgerProcess, _ args: [String]) throws -> [(position: Int, type: String, payload: [String: Any])] {
        let out = try cli.run(["log", "--json"] + args)
        #expect(out.status == 0, "\(args): \(out.stderr)")
        return out.stdout.split(separator: "\n").compactMap { line in
            guard let e = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (e["position"] as? Int ?? 0, e["type"] as? String ?? "", e["payload"] as? [String: Any] ?? [:])
        }
    }

    @Test("a set is followed through its edit and its move; an exercise through its sets, its swap and the exercise merged into it")
    func throughEditsSwapsMovesAndMerges() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        func id(_ args: [String], _ key: String) throws -> String {
            let out = try cli.run(args + ["--json"])
            return try #require(out.json?[key] as? String, "\(args): \(out.stderr)")
        }
        let w = try id(["workout", "start"], "workoutId")
        let kept = try id(["workout", "log", w, "bench", "--reps", "8", "--weight", "80"], "setId")
        let moved = try id(["workout", "log", w, "bench", "--reps", "6", "--weight", "85"], "setId")
        #expect(try cli.run(["workout", "edit-set", w, String(kept.prefix(8)), "--weight", "82.5"]).status == 0)
        let copy = try id(["workout", "move-set", w, moved, "Incline Bench Press (Dumbbell)"], "setId")
        _ = try id(["workout", "log", w, "squat", "--reps", "5", "--weight", "100"], "setId")
        #expect(try cli.run(["workout", "swap", w, "squat", "Front Squat (Barbell)"]).status == 0)
        #expect(try cli.run(["exercise", "add", "Floor Press Special", "--muscle", "chest", "--equipment", "barbell"]).status == 0)
        let floor = try id(["workout", "log", w, "Floor Press Special", "--reps", "5", "--weight", "90"], "setId")
        #expect(try cli.run(["exercise", "merge", "Floor Press Special", "Bench Press (Barbell)"]).status == 0)

        // The set kept: its logging and its edit, nothing else.
        let keptEvents = try Self.events(cli, ["--touching", "set", String(kept.prefix(8))])
        #expect(keptEvents.map(\.type) == ["SetLogged", "SetEdited"], "\(keptEvents.map(\.type))")
        // The set moved: logged, deleted, and the copy the move logged under its new id.
        let movedEvents = try Self.events(cli, ["--touching", "set", moved])
        #expect(movedEvents.map(\.type).prefix(3) == ["SetLogged", "SetDeleted", "SetLogged"], "\(movedEvents.map(\.type))")
        #expect(movedEvents.contains { $0.payload["setId"] as? String == copy })

        // The bench: its sets, the merge and the exercise merged into it with its set, not the moved copy (incline now).
        let bench = try Self.events(cli, ["--touching", "exercise", "Bench Press (Barbell)"])
        let setIds = Set(bench.compactMap { $0.payload["setId"] as? String })
        #expect(setIds.isSuperset(of: [kept, moved, floor]) && !setIds.contains(copy), "\(bench.map(\.type))")
        #expect(bench.contains { $0.type == "ExerciseMerged" } && bench.contains { $0.type == "ExerciseDefined" })
        // The squat: its set and the swap that replaced it.
        let squat = try Self.events(cli, ["--touching", "exercise", "Squat (Barbell)"])
        #expect(squat.contains { $0.type == "WorkoutExerciseSwapped" } && squat.contains { $0.type == "SetLogged" })
        #expect(!squat.contains { ($0.payload["setId"] as? String).map(setIds.contains) ?? false })

        // A workout: every event of its stream, as --stream gives them.
        let workout = try Self.events(cli, ["--touching", "workout", "last"]).map(\.position)
        #expect(workout == (try Self.events(cli, ["--stream", "workout-\(w)"]).map(\.position)))

        // Bad input, said in the first line (a usage error adds the usage after it).
        for (args, status, words) in [
            (["--touching", "planet", "x"], 2, "--touching takes exercise, workout or set"), (["--touching", "set"], 2, "--touching takes"),
            (["--touching", "set", "zzzz"], 2, "no set 'zzzz'"), (["--touching", "exercise", "Nonexistent Lift"], 1, "Nonexistent Lift"),
        ] {
            let out = try cli.run(["log"] + args)
            let first = out.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(out.status == Int32(status) && first.contains(words), "\(args): \(out.stderr)")
        }
    }
}

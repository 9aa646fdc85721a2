import Foundation
import LedgerTestSupport
import Testing

/// Issue 77, item 5: a watch workout that reaches the phone by sync runs the
/// phone's analysis hook there, once, with the analysis the watch recorded.
/// A real server on a loopback port, two devices.
@Suite(.serialized) struct AnalysisHookSyncTests {
    @Test("the phone's sync runs its hook for the watch's workout, with the watch's analysis; the next sync does not run it again")
    func syncRunsTheHook() throws {
        let scene = try SyncMergeTests.Scene(devices: 2)
        defer { scene.cleanUp() }
        let (phone, watch) = (scene.devices[0], scene.devices[1])
        let w = try watch.id(["workout", "start", "--name", "Watch bench", "--at", "2026-11-20T10:00:00Z"], "workoutId")
        for (i, reps) in [8, 8, 7].enumerated() {
            try #require(
                try watch.run([
                    "workout", "log", w, "Bench Press (Barbell)", "--reps", "\(reps)", "--weight", "80kg", "--at", "2026-11-20T10:0\(i + 1):00Z",
                ])
                .status == 0)
        }
        try #require(try watch.run(["workout", "health", w, "--heart-rate", "131", "--at", "2026-11-20T10:02:30Z"]).status == 0)
        try #require(try watch.run(["workout", "finish", w, "--at", "2026-11-20T10:30:00Z"]).status == 0)
        let recorded = try #require(
            (try watch.run(["workout", "analysis", w, "--json"]).json?["analyses"] as? [[String: Any]])?.first?["markdown"] as? String)
        try #require(try watch.sync().status == 0)

        let out = scene.cli.folder.appendingPathComponent("phone-hook")
        let hook = ["REPLEDGER_ANALYSIS_HOOK": "cat > '\(out.path).md'; printf '%s\\n' \"$REPLEDGER_WORKOUT_ID\" >> '\(out.path).ids'"]
        let synced = try phone.run(["sync", "--json"], env: hook)
        #expect(synced.status == 0 && (synced.json?["pulled"] as? Int ?? 0) > 0, "\(synced.stderr)")
        #expect(try String(contentsOfFile: out.path + ".md", encoding: .utf8) == recorded, "the watch's analysis, byte for byte")
        #expect(try String(contentsOfFile: out.path + ".ids", encoding: .utf8) == w + "\n")
        #expect(try phone.run(["sync", "--json"], env: hook).status == 0)
        #expect(try String(contentsOfFile: out.path + ".ids", encoding: .utf8) == w + "\n", "a second sync brings nothing: no second run")
    }
}

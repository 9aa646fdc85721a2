import Foundation
import LedgerTestSupport
import Testing

/// Issue 74, item 7, in the inspector: a session page's timeline of sets,
/// rests and pauses with their lengths, and the As-of page's steps by
/// training date.
@Suite struct InspectorTimelineTests {
    @Test func aSessionPageShowsItsSetsRestsAndPausesWithTheirLengths() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let w = try #require(
            try cli.run(["workout", "start", "--name", "Timed", "--at", "2026-11-02T10:00:00Z", "--json"]).json?["workoutId"] as? String)
        for (args, at) in [
            (["workout", "log", w, "squat", "--reps", "5", "--weight", "100"], "10:05:00"),
            (["workout", "log", w, "squat", "--reps", "5", "--weight", "100"], "10:08:00"),
            (["workout", "pause", w], "10:09:00"), (["workout", "resume", w], "10:14:00"),
            (["workout", "log", w, "squat", "--reps", "5", "--weight", "100"], "10:16:30"),
            (["workout", "finish", w], "10:20:00"),
        ] {
            let out = try cli.run(args + ["--at", "2026-11-02T\(at)Z"])
            #expect(out.status == 0, "\(args): \(out.stderr)")
        }
        let inspector = try InspectorProcess(db: cli.db, folder: cli.folder)
        let cookie = try await inspector.signIn()
        let page = try await inspector.get("/inspect/workouts/\(w)", cookie: cookie).body
        let timeline = try #require(
            page.range(of: #"<section class="card" id="timeline">.*?</section>"#, options: .regularExpression).map { String(page[$0]) })
        let kinds = timeline.matches(of: /data-kind="(\w+)"/).map { String($0.1) }
        #expect(kinds == ["start", "set", "rest", "set", "pause", "rest", "set", "finish"], "\(kinds)")
        let lengths = timeline.matches(of: /data-seconds="(\d+)"/).map { Int($0.1) ?? -1 }
        // 3 min between the first two sets, a 5 min pause, 8 min 30 s to the third set, 20 min in all.
        #expect(lengths == [180, 300, 510, 1200], "\(lengths)")
        #expect(timeline.contains("+16:30") && timeline.contains("8:30"))
    }
}

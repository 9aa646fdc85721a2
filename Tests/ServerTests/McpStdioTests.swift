import Foundation
import LedgerTestSupport
import Testing

/// `ledger mcp` driven by a real MCP client (Python's `mcp`) over stdio, on real ledger files: every
/// read answers the CLI's `--json` document byte for byte, writes never land on a log that moved and
/// append once however often they are retried, and bad calls append nothing while the server serves on.
@Suite(
    .enabled(
        if: (McpClient.available || McpClient.required) && !ServerProcess.onPostgres,
        "the Python mcp package is not installed (pip install mcp), or this is the PostgreSQL pass"))
struct McpStdioTests {
    static let reads: Set = [
        "history", "workout", "records", "e1rm_trend", "volume", "last_time", "next_targets", "program_today", "search_exercises", "calendar",
        "body_history", "entitlements", "verify",
    ]
    static let writes: Set = [
        "start_workout", "log_set", "edit_set", "complete_set", "uncomplete_set", "delete_set", "duplicate_set", "add_exercise", "remove_exercise",
        "swap_exercise", "link_superset", "rest_timer", "finish_workout", "discard_workout", "add_note", "log_bodyweight", "plan_warmup",
        "reorder_exercises", "move_set", "unlink_superset", "pause_workout", "save_template", "change_settings",
    ]

    static func tools(_ client: McpClient) throws -> [[String: Any]] {
        try #require(try client.send(["op": "list_tools"])["tools"] as? [[String: Any]])
    }

    @Test func everyReadAnswersTheCLIsDocument() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--json"]).status == 0)
        let client = try McpClient(stdio: ["--db", cli.db], folder: cli.folder)
        defer { client.close() }

        let tools = try Self.tools(client)
        #expect(Set(tools.compactMap { $0["name"] as? String }) == Self.reads.union(Self.writes))
        for tool in tools {
            let name = tool["name"] as? String ?? "", annotations = tool["annotations"] as? [String: Any] ?? [:]
            if Self.reads.contains(name) {
                #expect(annotations["readOnlyHint"] as? Bool == true, "\(name)")
            } else {
                #expect(annotations["readOnlyHint"] as? Bool == false && annotations["idempotentHint"] as? Bool == true, "\(name)")
                let required = (tool["inputSchema"] as? [String: Any])?["required"] as? [String] ?? []
                #expect(required.contains("expectedPosition") && required.contains("requestId"), "\(name)")
            }
        }
        let logSet = try #require(tools.first { $0["name"] as? String == "log_set" })
        let weight = ((logSet["inputSchema"] as? [String: Any])?["properties"] as? [String: Any])?["weightKg"] as? [String: Any]
        #expect(weight?["minimum"] as? Double == 0 && weight?["maximum"] as? Double == 1000)

        // Each read tool beside the CLI command that prints the same document.
        let pairs: [(String, [String: Any], [String])] = [
            ("history", ["limit": 3], ["history", "--limit", "3"]),
            ("history", ["exercise": "squat", "month": "2026-10"], ["history", "--exercise", "squat", "--month", "2026-10"]),
            ("workout", ["workout": "last"], ["workout", "show", "last"]),
            ("records", ["exercise": "bench"], ["prs", "bench"]),
            ("records", ["asOf": "900"], ["prs", "--as-of", "900"]),
            ("e1rm_trend", ["exercise": "squat", "formula": "brzycki"], ["e1rm", "squat", "--formula", "brzycki"]),
            ("volume", ["by": "muscle"], ["volume", "--by", "muscle"]),
            ("volume", ["until": "2026-10-01"], ["volume", "--until", "2026-10-01"]),
            ("last_time", ["exercise": "deadlift"], ["hint", "deadlift"]),
            ("next_targets", ["all": true], ["next", "--all"]),
            ("program_today", [:], ["next"]),
            ("search_exercises", ["text": "incline press", "limit": 5], ["exercise", "search", "incline press", "--limit", "5"]),
            ("calendar", ["month": "2026-10"], ["calendar", "--month", "2026-10"]),
            ("body_history", [:], ["body", "history"]),
            ("entitlements", ["at": "2026-11-01T00:00:00Z"], ["entitlements", "--at", "2026-11-01T00:00:00Z"]),
            ("verify", [:], ["verify"]),
        ]
        for (tool, args, command) in pairs {
            let answer = try client.call(tool, args)
            let printed = try cli.run(command + ["--json"])
            #expect(!answer.isError && printed.status == 0, "\(tool): \(answer.text) / \(printed.stderr)")
            #expect(
                answer.text == printed.stdout.trimmingCharacters(in: .newlines),
                "\(tool) \(args) differs from `ledger \(command.joined(separator: " "))`")
        }

        // Resources: a workout's document and the log's own lines.
        let workout = try client.send(["op": "read", "uri": "ledger://workouts/last"])
        let workoutText = ((workout["contents"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        #expect(workoutText == (try cli.run(["workout", "show", "last", "--json"])).stdout.trimmingCharacters(in: .newlines))
        let page = try client.send(["op": "read", "uri": "ledger://log?after=10"])
        let lines = (((page["contents"] as? [[String: Any]])?.first?["text"] as? String) ?? "").split(separator: "\n").map(String.init)
        let logged = try cli.run(["log", "--from", "11", "--json"]).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 500 && firstDifference(lines, Array(logged.prefix(500))) == nil)
        #expect(try client.send(["op": "read", "uri": "ledger://nothing"])["error"] != nil)
        let prompts = try #require(try client.send(["op": "list_prompts"])["prompts"] as? [[String: Any]])
        #expect(Set(prompts.compactMap { $0["name"] as? String }) == ["weekly_review", "plan_next_session"])
        let review = try client.send(["op": "prompt", "name": "weekly_review", "args": ["focus": "squat"]])
        #expect(String(describing: review["messages"] ?? "").contains("squat"))
    }

    @Test func writesNeverOverwriteTheLifterAndARetryAppendsOnce() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let client = try McpClient(stdio: ["--db", cli.db], folder: cli.folder)
        defer { client.close() }

        let started = try client.call("start_workout", ["name": "Push", "expectedPosition": try client.head(), "requestId": "start-1"])
        #expect(!started.isError, "\(started.text)")
        let workoutId = try #require(started.structured["workoutId"] as? String)
        var head = try client.head()

        // One set sent 100 times with one requestId: appended once, the same answer every time.
        let set: [String: Any] = ["workout": workoutId, "exercise": "bench", "reps": 5, "weightKg": 100, "rpe": 8, "requestId": "set-1"]
        var answers = Set<String>()
        for _ in 0..<100 {
            let r = try client.call("log_set", set.merging(["expectedPosition": head]) { $1 })
            #expect(!r.isError, "\(r.text)")
            answers.insert(r.text)
        }
        #expect(answers.count == 1)
        let first = try JSONSerialization.jsonObject(with: Data(answers.first!.utf8)) as? [String: Any]
        let setId = try #require(first?["setId"] as? String)
        let appended = (first?["appended"] as? [[String: Any]])?.count ?? 0
        let now = try client.head()
        #expect(appended >= 1 && now == head + appended)
        head = try client.head()
        #expect(try cli.run(["log", "--json"]).stdout.components(separatedBy: "\"type\":\"SetLogged\"").count - 1 == 1)

        // The lifter logs a set on the phone meanwhile: the assistant's write on the old head appends
        // nothing, and the refusal gives the head now and what the lifter appended.
        #expect(try cli.run(["workout", "log", workoutId, "bench", "--reps", "5", "--weight", "100kg"]).status == 0)
        let moved = try client.head()
        let stale = try client.call("log_set", set.merging(["expectedPosition": head, "requestId": "set-2"]) { $1 })
        #expect(stale.isError && stale.text.contains("moved"))
        let error = try #require(stale.structured["error"] as? [String: Any])
        #expect(error["code"] as? String == "stalePosition")
        #expect((error["head"] as? [String: Any])?["position"] as? Int == moved)
        let since = error["since"] as? [[String: Any]] ?? []
        #expect(since.contains { $0["type"] as? String == "SetLogged" && $0["device"] as? String == "cli" })
        #expect(try client.head() == moved)
        // The first request retried still answers as it did, though the log moved since.
        #expect(try client.call("log_set", set.merging(["expectedPosition": head]) { $1 }).text == answers.first!)

        // The other writes, each on the head it read.
        for (tool, args) in [
            ("edit_set", ["workout": workoutId, "set": setId, "reps": 6] as [String: Any]),
            ("add_note", ["workout": workoutId, "text": "Felt strong"]),
            ("log_bodyweight", ["weightKg": 82.5]), ("finish_workout", ["workout": workoutId, "feeling": 4, "note": "Good session"]),
        ] {
            let r = try client.call(tool, args.merging(["expectedPosition": try client.head(), "requestId": "\(tool)-1"]) { $1 })
            #expect(!r.isError, "\(tool): \(r.text)")
        }
        let history = try cli.run(["history", "--json"]).stdout
        #expect(history.contains("\"reps\":6") && history.contains(workoutId))
        #expect(try cli.run(["body", "history", "--json"]).stdout.contains("82.5"))

        // Bad calls: a one-line error each, nothing appended, and the next call is served.
        let before = try client.head()
        let bad: [(String, [String: Any], String)] = [
            ("log_set", ["exercise": "bench", "reps": 5000], "reps takes a whole number from 0 to 1000"),
            ("log_set", ["exercise": "bench", "reps": "five"], "reps takes a whole number"),
            ("log_set", ["exercise": "benhc", "reps": 5], "did you mean"),
            ("log_set", ["exercise": "bench", "reps": 5, "weight": 100], "weight is not an argument"),
            ("log_bodyweight", ["weightKg": 1], "weightKg takes a number from 20 to 400"),
            ("lift_for_me", [:], "no tool 'lift_for_me'"),
        ]
        for (n, (tool, args, words)) in bad.enumerated() {
            var given = args.merging(["expectedPosition": before, "requestId": "bad-\(n)"]) { $1 }
            if tool == "log_set" { given["workout"] = workoutId }
            let r = try client.call(tool, given)
            #expect(r.isError && r.text.contains(words) && !r.text.contains("\n"), "\(tool): \(r.text)")
        }
        #expect(try client.head() == before)
        let unknownExercise = try client.call("last_time", ["exercise": "benhc"])
        #expect(unknownExercise.isError && unknownExercise.text.contains("Bench"))

        // What the assistant recorded says so in the log, and the chain verifies.
        let devices = try cli.run(["log", "--json"]).stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["device"] as? String
        }
        #expect(Set(devices) == ["assistant", "cli", "ledger"] || Set(devices) == ["assistant", "cli"])
        #expect(try cli.run(["verify", "--json"]).json?["ok"] as? Bool == true)
    }

    @Test func readOnlyOffersNoWriteToolAndRecordsNothing() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--json"]).status == 0)
        let headBefore = try cli.run(["verify", "--json"]).json?["events"] as? Int
        let client = try McpClient(stdio: ["--db", cli.db, "--read-only"], folder: cli.folder)
        defer { client.close() }
        let names = Set(try Self.tools(client).compactMap { $0["name"] as? String })
        #expect(names == Self.reads)
        let refused = try client.call("log_bodyweight", ["weightKg": 80, "expectedPosition": headBefore ?? 0, "requestId": "r"])
        #expect(refused.isError && refused.text.contains("read-only"))
        #expect(try client.call("records").isError == false)
        #expect(try cli.run(["verify", "--json"]).json?["events"] as? Int == headBefore)
    }
}

import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerService
import Testing

@testable import RepLedgerServer

/// `POST /v1/accounts/{account}/commands` on a real loopback port, in process: a workout recorded through the
/// command API, a retried request that appends nothing, a stale position, bad input refused with nothing appended,
/// and the scopes.
@Suite struct CommandAPITests {
    struct Server {
        let client: any TestClientProtocol
        let account: String
        let full: String
        let read: String

        func post(_ body: String, token: String? = nil) async throws -> (status: Int, json: [String: Any], text: String) {
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(token ?? full)"
            headers[.contentType] = "application/json"
            return try await client.execute(
                uri: "/v1/accounts/\(account)/commands", method: .post, headers: headers, body: ByteBuffer(string: body)
            ) { response in
                let text = String(buffer: response.body)
                let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                return (Int(response.status.code), json, text)
            }
        }

        /// The account's head position, read through `verify`.
        func head() async throws -> Int {
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(full)"
            return try await client.execute(uri: "/v1/accounts/\(account)/verify", method: .get, headers: headers) { response in
                let json = (try? JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))) as? [String: Any]
                return json?["events"] as? Int ?? -1
            }
        }
    }

    static func withServer(_ body: @Sendable (Server) async throws -> Void) async throws {
        try await InProcessServer.with { server in
            let read = try server.api.accounts.createToken(account: server.account, device: "reader", scope: .read)
            try await server.live { client in try await body(Server(client: client, account: server.account, full: server.token, read: read)) }
        }
    }

    @Test(
        "a workout through the command API: start, log, retry, finish; each answer has its positions and the workout; a reused requestId is refused")
    func aWorkout() async throws {
        try await Self.withServer { server in
            let started = try await server.post(#"{"command":"start_workout","args":{"name":"Upper A"},"requestId":"r-1"}"#)
            #expect(started.status == 200, "\(started.text)")
            let workoutId = try #require(started.json["workoutId"] as? String)
            let summary = (started.json["workout"] as? [String: Any])?["workout"] as? [String: Any]
            #expect(summary?["name"] as? String == "Upper A", "\(started.text)")

            let log =
                #"{"command":"log_set","args":{"workout":"\#(workoutId)","exercise":"Bench Press (Barbell)","reps":8,"weightKg":80},"requestId":"r-2"}"#
            let first = try await server.post(log)
            #expect(first.status == 200, "\(first.text)")
            let appended = try #require(first.json["appended"] as? [[String: Any]])
            #expect(appended.contains { $0["type"] as? String == "SetLogged" }, "\(first.text)")
            let head = try await server.head()
            // Sent again (a lost answer): nothing more is appended, and the answer is the first one's.
            let again = try await server.post(log)
            let headAfter = try await server.head()
            #expect(again.status == 200 && headAfter == head)
            #expect(again.json["setId"] as? String == first.json["setId"] as? String)
            #expect((again.json["appended"] as? [[String: Any]])?.count == appended.count)
            let exercises = (again.json["workout"] as? [String: Any])?["exercises"] as? [[String: Any]]
            #expect(exercises?.first?["sets"] as? Int == 1, "\(again.text)")
            // The same requestId with other arguments is another request: refused, nothing appended, never the first answer.
            let reused = try await server.post(log.replacingOccurrences(of: #""reps":8"#, with: #""reps":9"#))
            #expect(reused.status == 409 && (reused.json["error"] as? [String: Any])?["code"] as? String == "requestIdReused", "\(reused.text)")
            let headAfterReuse = try await server.head()
            #expect(headAfterReuse == head)

            let finished = try await server.post(
                #"{"command":"finish_workout","args":{"workout":"\#(workoutId)","feeling":4},"requestId":"r-3","expectedPosition":\#(head)}"#)
            #expect(finished.status == 200, "\(finished.text)")
        }
    }

    @Test(
        "refused: a stale position (409), bad arguments (400), an unknown command (404), a decider's refusal (422), a read key (403); nothing appended"
    )
    func refusals() async throws {
        try await Self.withServer { server in
            let started = try await server.post(#"{"command":"start_workout","requestId":"s-1"}"#)
            #expect(started.status == 200)
            let head = try await server.head()
            let cases: [(body: String, token: String?, status: Int, code: String)] = [
                (#"{"command":"log_bodyweight","args":{"weightKg":80},"requestId":"s-2","expectedPosition":1}"#, nil, 409, "stalePosition"),
                (#"{"command":"log_set","args":{"exercise":"Squat (Barbell)","reps":"eight"},"requestId":"s-3"}"#, nil, 400, "invalidArgument"),
                (
                    #"{"command":"log_set","args":{"exercise":"Squat (Barbell)","reps":8,"weightKg":5000},"requestId":"s-4"}"#, nil, 400,
                    "invalidArgument"
                ),
                (
                    #"{"command":"log_set","args":{"exercise":"Squat (Barbell)","reps":8,"colour":"red"},"requestId":"s-5"}"#, nil, 400,
                    "invalidArgument"
                ),
                (#"{"command":"history","args":{},"requestId":"s-6"}"#, nil, 404, "unknownCommand"),
                (#"{"command":"log_set","args":{"exercise":"No Such Lift","reps":8},"requestId":"s-7"}"#, nil, 422, "unknownExercise"),
                (#"{"command":"log_bodyweight","args":{"weightKg":80},"requestId":"s-8"}"#, server.read, 403, "scope"),
                (#"{"command":"log_bodyweight","args":{"weightKg":80,"requestId":"x"},"requestId":"s-9"}"#, nil, 400, "badRequest"),
                (#"{"command":"log_bodyweight","args":{"weightKg":80}}"#, nil, 400, "badRequest"),
                (#"{"command":"log_bodyweight","args":[80],"requestId":"s-10"}"#, nil, 400, "badRequest"),
                ("<p>not json</p>", nil, 400, "badRequest"),
            ]
            for c in cases {
                let answer = try await server.post(c.body, token: c.token)
                let error = answer.json["error"] as? [String: Any]
                #expect(answer.status == c.status && error?["code"] as? String == c.code, "\(c.body): \(answer.text)")
                #expect((error?["message"] as? String)?.contains("\n") == false)
            }
            let after = try await server.head()
            #expect(after == head, "nothing appended by a refused command")
        }
    }

    @Test("the workout's vocabulary: plan and complete a set, delete one, add, swap and remove exercises, a superset, the rest timer, discard")
    func theWorkoutsVocabulary() async throws {
        try await Self.withServer { server in
            var n = 0
            func run(_ command: String, _ args: String) async throws -> [String: Any] {
                n += 1
                let answer = try await server.post(#"{"command":"\#(command)","args":{\#(args)},"requestId":"v-\#(n)"}"#)
                #expect(answer.status == 200, "\(command): \(answer.text)")
                return answer.json
            }
            let w = try #require(try await run("start_workout", #""name":"Pull""#)["workoutId"] as? String)
            let logged = try #require(try await run("log_set", #""workout":"\#(w)","exercise":"Pull Up","reps":8"#)["setId"] as? String)
            _ = try await run("uncomplete_set", #""workout":"\#(w)","set":"\#(logged)""#)
            let planned = try #require(try await run("duplicate_set", #""workout":"\#(w)","set":"\#(logged)""#)["setId"] as? String)
            #expect(planned != logged)
            _ = try await run("complete_set", #""workout":"\#(w)","set":"\#(logged)""#)
            let completed = try await run("complete_set", #""workout":"\#(w)","set":"\#(planned)","reps":6"#)
            let pullUps = ((completed["workout"] as? [String: Any])?["exercises"] as? [[String: Any]])?.first
            #expect(pullUps?["sets"] as? Int == 2, "\(completed)")
            _ = try await run("delete_set", #""workout":"\#(w)","set":"\#(planned)""#)
            _ = try await run("add_exercise", #""workout":"\#(w)","exercise":"Bent Over Row (Barbell)""#)
            _ = try await run("add_exercise", #""workout":"\#(w)","exercise":"Bicep Curl (Barbell)""#)
            _ = try await run("link_superset", #""workout":"\#(w)","exercises":["Bent Over Row (Barbell)","Bicep Curl (Barbell)"]"#)
            _ = try await run("swap_exercise", #""workout":"\#(w)","exercise":"Bicep Curl (Barbell)","to":"Hammer Curl (Dumbbell)""#)
            _ = try await run("remove_exercise", #""workout":"\#(w)","exercise":"Hammer Curl (Dumbbell)""#)
            for (action, seconds) in [("start", ",\"seconds\":90"), ("adjust", ",\"seconds\":15"), ("pause", ""), ("resume", ""), ("dismiss", "")] {
                _ = try await run("rest_timer", #""workout":"\#(w)","action":"\#(action)"\#(seconds)"#)
            }
            let after = try await server.post(#"{"command":"rest_timer","args":{"workout":"\#(w)","action":"dismiss"},"requestId":"v-again"}"#)
            #expect(after.status == 422 && (after.json["error"] as? [String: Any])?["code"] as? String == "noRestTimer", "\(after.text)")
            let exercises = ((try await run("add_note", #""workout":"\#(w)","text":"Grip gave out""#))["workout"] as? [String: Any])?["exercises"]
            #expect(
                (exercises as? [[String: Any]])?.map { $0["exercise"] as? String } == ["Pull Up", "Bent Over Row (Barbell)"],
                "\(String(describing: exercises))")
            let discarded = try await run("discard_workout", #""workout":"\#(w)""#)
            #expect(discarded["workout"] is NSNull, "a discarded workout is out of history: \(discarded)")
        }
    }

    @Test(
        "the rest of a lifter's vocabulary: warm-ups, RIR, a timed set, reorder, move a set, end a superset, pause, a template from the workout, repeat the last, a program's day"
    )
    func theRestOfTheVocabulary() async throws {
        try await InProcessServer.with { host in
            // A program to start a day of, made as `program generate` makes one.
            try host.api.logs.log(host.account).withLedger { ledger in
                var q = QuestionnaireAnswered()
                (q.daysPerWeek, q.experience, q.goals, q.equipment) = (
                    3, .beginner, [.strength], [.barbell, .dumbbell, .bench, .pullUpBar, .bodyweight]
                )
                _ = try ledger.execute { try $0.answerQuestionnaire(q) }
                _ = try ledger.execute { try $0.generateProgram(seed: 5) }
            }
            try await host.live { client in
                let server = Server(client: client, account: host.account, full: host.token, read: host.token)
                var n = 0
                func run(_ command: String, _ args: String) async throws -> [String: Any] {
                    n += 1
                    let answer = try await server.post(#"{"command":"\#(command)","args":{\#(args)},"requestId":"r-\#(n)"}"#)
                    #expect(answer.status == 200, "\(command): \(answer.text)")
                    return answer.json
                }
                /// The workout's exercises in its order, and its name, as the answer's summary gives them.
                func workout(_ answer: [String: Any]) -> [String: Any] { (answer["workout"] as? [String: Any])?["workout"] as? [String: Any] ?? [:] }
                func exercises(_ answer: [String: Any]) -> [String] {
                    (workout(answer)["exercises"] as? [[String: Any]] ?? []).compactMap { $0["exercise"] as? String }
                }
                let w = try #require(try await run("start_workout", #""name":"Legs""#)["workoutId"] as? String)
                // Warm-ups ramp to the working weight before any working set; then a set with reps in reserve, and a timed hold.
                #expect(try await run("plan_warmup", #""workout":"\#(w)","exercise":"Squat (Barbell)","weightKg":100"#)["setId"] is String)
                _ = try await run("log_set", #""workout":"\#(w)","exercise":"Squat (Barbell)","reps":5,"weightKg":100,"rir":2"#)
                _ = try await run("log_set", #""workout":"\#(w)","exercise":"Plank","durationSeconds":60"#)
                let bothScales = try await server.post(
                    #"{"command":"log_set","args":{"workout":"\#(w)","exercise":"Squat (Barbell)","reps":5,"rpe":8,"rir":2},"requestId":"r-both"}"#)
                #expect(bothScales.status == 422 && bothScales.text.contains("RPE and RIR together"), "\(bothScales.text)")
                // A set logged under the wrong exercise moves; the order changes; a superset begins and ends.
                let misplaced = try #require(
                    try await run("log_set", #""workout":"\#(w)","exercise":"Leg Press","reps":10,"weightKg":150"#)["setId"] as? String)
                _ = try await run("add_exercise", #""workout":"\#(w)","exercise":"Romanian Deadlift (Barbell)""#)
                let moved = try await run("move_set", #""workout":"\#(w)","set":"\#(misplaced)","exercise":"Romanian Deadlift (Barbell)""#)
                #expect(moved["setId"] as? String != misplaced)
                _ = try await run("remove_exercise", #""workout":"\#(w)","exercise":"Leg Press""#)
                let reordered = try await run(
                    "reorder_exercises", #""workout":"\#(w)","exercises":["Plank","Squat (Barbell)","Romanian Deadlift (Barbell)"]"#)
                #expect(exercises(reordered) == ["Plank", "Squat (Barbell)", "Romanian Deadlift (Barbell)"], "\(reordered)")
                _ = try await run("link_superset", #""workout":"\#(w)","exercises":["Plank","Romanian Deadlift (Barbell)"]"#)
                _ = try await run("unlink_superset", #""workout":"\#(w)","exercise":"Plank""#)
                _ = try await run("pause_workout", #""workout":"\#(w)","action":"pause""#)
                _ = try await run("pause_workout", #""workout":"\#(w)","action":"resume""#)
                _ = try await run("finish_workout", #""workout":"\#(w)","feeling":4"#)

                // The workout as a template: its exercises in order, warm-ups left out.
                let template = try #require(try await run("save_template", #""workout":"\#(w)","name":"Legs A""#)["templateId"] as? String)
                let lines = try host.api.logs.log(host.account).withLedger { try $0.templates().live.first { $0.templateId.lowercased == template } }
                #expect(lines?.exercises.map(\.exerciseId) == ["plank", "back-squat", "romanian-deadlift"], "\(String(describing: lines))")
                #expect(
                    lines?.exercises.first { $0.exerciseId == "back-squat" }.map { ($0.sets, $0.repsMin, $0.repsMax) } ?? (0, nil, nil) == (1, 5, 5))

                // The last workout again, then a program's day.
                let again = try await run("start_workout", #""repeatLast":true"#)
                #expect(workout(again)["name"] as? String == "Legs", "\(again)")
                _ = try await run("discard_workout", "")
                let day = try await run("start_workout", #""program":"active","day":1"#)
                let planned = ((day["workout"] as? [String: Any])?["exercises"] as? [[String: Any]] ?? []).compactMap { $0["plannedSets"] as? Int }
                #expect(!planned.isEmpty && planned.allSatisfy { $0 > 0 }, "the program's day plans its sets: \(day)")
                let both = try await server.post(#"{"command":"start_workout","args":{"template":"Legs A","repeatLast":true},"requestId":"r-x"}"#)
                #expect(both.status == 400, "\(both.text)")
            }
        }
    }
}

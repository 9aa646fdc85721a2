import Foundation
import LedgerTestSupport
import RepLedgerSQLite
import Testing

/// `ledger inspect` over HTTP on a real export (Andrew50's Strong history): the
/// one-time address and its cookie, each page's JSON equal to the CLI's
/// `--json` on the same file, bad input answered in one line, a damaged
/// ledger shown at its first bad position, and the file's bytes unchanged.
// A device's file, no server storage: not run again when `.ci/run` repeats this target on PostgreSQL.
@Suite(
    .serialized, .needsSharedData(.realExports),
    .disabled(if: ServerProcess.onPostgres, "the inspector reads a device's file, not the server's storage"))
struct InspectorTests {
    static let andrew = SharedData.url(.realExports).appendingPathComponent("strong_Andrew50_Lifting.csv").path

    static func importedAndrew() throws -> LedgerProcess {
        let cli = try LedgerProcess()
        let out = try cli.run(["import", "strong", andrew, "--unit", "lb", "--timezone", "UTC"])
        guard out.status == 0 else { throw ServerFailure.cli(out.stderr) }
        return cli
    }

    @Test func theOwnerReadsEveryPageAsTheCLIAnswersAndTheFileIsUntouched() async throws {
        let cli = try Self.importedAndrew()
        defer { cli.cleanUp() }
        // The first query keeps how far it verified the chain in the file; the later ones, at the same head, write nothing.
        #expect(try cli.run(["history", "--limit", "1"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        let head = try cli.eventCount()
        let inspector = try InspectorProcess(db: cli.db, folder: cli.folder)

        // No cookie, no page; the address's code works once.
        let refused = try await inspector.get("/inspect/log", json: true)
        #expect(refused.status == 401 && (refused.object?["error"] as? [String: Any])?["code"] as? String == "unauthorized")
        let opened = try await inspector.get(inspector.address)
        let setCookie = opened.headers["Set-Cookie"].first ?? ""
        #expect(opened.status == 303 && opened.headers["Location"].first == "/inspect/log")
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/inspect"))
        #expect(try await inspector.get(inspector.address).status == 401, "a spent code opens nothing")
        // A missing cookie fails this test with its answer, not the whole test process.
        let cookie = String(try #require(setCookie.split(separator: ";").first, "no session cookie: \(opened.status)"))

        // The log, paged by the server; a filter's counts cover the whole log.
        let first = try #require(try await inspector.get("/inspect/log", cookie: cookie, json: true).object)
        let events = try #require(first["events"] as? [[String: Any]])
        #expect(events.map { $0["position"] as? Int } == (1...100).map { $0 })
        #expect(first["next"] as? Int == 101 && first["headPosition"] as? Int == head)
        let setLines = try cli.run(["log", "--type", "SetLogged", "--json"]).stdout.split(separator: "\n")
        let sets = try #require(try await inspector.get("/inspect/log?type=SetLogged&by=day&from=50", cookie: cookie, json: true).object)
        let setEvents = try #require(sets["events"] as? [[String: Any]])
        #expect(!setEvents.isEmpty && setEvents.allSatisfy { $0["type"] as? String == "SetLogged" && ($0["position"] as? Int ?? 0) >= 50 })
        let counted = (sets["counts"] as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["events"] as? Int ?? 0) }
        #expect(counted == setLines.count, "the day counts add up to every SetLogged event")
        // Every event that touched an exercise: the page's first 100 are `log --touching`'s.
        let touchingLines = try cli.run(["log", "--touching", "exercise", "Bench Press (Barbell)", "--json"]).stdout.split(separator: "\n")
        let touching = try #require(
            try await inspector.get("/inspect/log?touchingExercise=Bench%20Press%20(Barbell)", cookie: cookie, json: true).object?["events"]
                as? [[String: Any]])
        let touchingPositions = touchingLines.prefix(100).compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["position"] as? Int
        }
        #expect(touchingLines.count > 100 && touching.map { $0["position"] as? Int } == touchingPositions.map { Optional($0) })
        let html = try await inspector.get("/inspect/log?from=\(head - 5)", cookie: cookie)
        #expect(
            html.body.contains("data-position=\"\(head)\"") && html.headers["Content-Security-Policy"].first?.contains("script-src 'self'") == true)
        let jump = try await inspector.get("/inspect/log?at=\(head / 2)", cookie: cookie)
        #expect(jump.status == 303 && jump.headers["Location"].first == "/inspect/log?from=\(head / 2)")

        // As of a position: the records are `prs --as-of N`.
        let n = head / 2
        let at = try #require(try await inspector.get("/inspect/at/\(n)", cookie: cookie, json: true).object)
        #expect(sameJSON(at["records"], try cli.run(["prs", "--as-of", "\(n)", "--json"]).json))
        #expect(at["position"] as? Int == n && (at["event"] as? [String: Any])?["position"] as? Int == n)
        let page = try await inspector.get("/inspect/at/\(n)", cookie: cookie)
        #expect(page.body.contains("href=\"/inspect/at/\(n + 1)\"") && page.body.contains("href=\"/inspect/at/\(n - 1)\""))
        #expect(page.body.contains("data-exercise=\"Bench Press (Barbell)\"") && page.body.contains("data-why"))
        // By training date: the end of the day before this event's, and of the day after, as `log --json` dates them.
        let days = Dictionary(
            uniqueKeysWithValues: try cli.run(["log", "--json"]).stdout.split(separator: "\n").compactMap { line -> (Int, String)? in
                guard let e = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let p = e["position"] as? Int,
                    let t = e["occurredAt"] as? String
                else { return nil }
                return (p, String(t.prefix(10)))
            })
        let previousDay = try #require((1..<n).reversed().first { days[$0] != days[n] })
        let firstOther = try #require((n + 1...head).first { days[$0] != days[n] })
        let nextDay = (firstOther...head).prefix { days[$0] == days[firstOther] }.last ?? firstOther
        #expect(
            page.body.contains("id=\"previous-day\" href=\"/inspect/at/\(previousDay)\"")
                && page.body.contains("id=\"next-day\" href=\"/inspect/at/\(nextDay)\""))

        // A workout's session is `replay`; a record's why is `why prs`; verify is `verify`.
        let workout =
            try #require(try cli.run(["history", "--json", "--limit", "1"]).json?["workouts"] as? [[String: Any]]).first?["workoutId"] as? String
        let w = try #require(workout)
        let replay = try JSONSerialization.jsonObject(with: Data(try cli.run(["replay", w, "--json"]).stdout.utf8))
        #expect(sameJSON(try await inspector.get("/inspect/workouts/\(w)", cookie: cookie, json: true).json, replay))
        // The session page's fixture replays as it was saved.
        let oldest = try #require((try cli.run(["history", "--json"]).json?["workouts"] as? [[String: Any]])?.last?["workoutId"] as? String)
        let fixture = try await inspector.get("/inspect/workouts/\(oldest)/fixture", cookie: cookie)
        #expect(fixture.status == 200 && fixture.headers["Content-Disposition"].first?.hasPrefix("attachment") == true)
        let saved = cli.folder.appendingPathComponent("session.fixture")
        try fixture.body.write(to: saved, atomically: true, encoding: .utf8)
        let checked = try cli.run(["check-fixture", saved.path], useDbFlag: false)
        #expect(checked.status == 0, "\(checked.stderr)")
        let why = try await inspector.get("/inspect/why?subject=prs&target=Bench%20Press%20(Barbell)&asOf=\(n)", cookie: cookie, json: true)
        #expect(sameJSON(why.json, try cli.run(["why", "prs", "Bench Press (Barbell)", "--as-of", "\(n)", "--json"]).json))
        #expect(sameJSON(try await inspector.get("/inspect/verify", cookie: cookie, json: true).json, try cli.run(["verify", "--json"]).json))
        // The session's hints and rep counts, and the As-of plan, each link to the CLI's `why`.
        let session = try await inspector.get("/inspect/workouts/\(w)", cookie: cookie)
        let links = session.body.ranges(of: #/data-why href="([^"]+)"/#).map {
            String(session.body[$0]).dropFirst(15).dropLast().replacing("&amp;", with: "&")
        }
        for subject in ["hint", "repcount"] {
            let link = try #require(links.first { $0.contains("subject=\(subject)&") }, "the session page links a \(subject)")
            let answer = try #require(try await inspector.get(String(link), cookie: cookie, json: true).object)
            let exercise = try #require(answer["exercise"] as? String)
            let expected = try cli.run(["why", subject, exercise, "--workout", w, "--as-of", "\(head)", "--json"]).json
            #expect(sameJSON(answer, expected), "\(subject) of \(exercise)")
        }
        let plan = try await inspector.get("/inspect/why?subject=entitlement&target=pro&asOf=\(n)", cookie: cookie, json: true)
        #expect(page.body.contains("subject=entitlement&amp;target=pro&amp;asOf=\(n)"))
        #expect(sameJSON(plan.json, try cli.run(["why", "entitlement", "pro", "--as-of", "\(n)", "--json"]).json))

        // Bad input: one line in the page and in JSON, with the status that says which.
        for (path, status, words) in [
            ("/inspect/at/\(head + 1)", 400, "past the head"), ("/inspect/at/x", 400, "whole number"),
            ("/inspect/workouts/nope", 404, "nope"), ("/inspect/why?subject=pr&target=Squat", 400, "unknown subject 'pr'"),
            ("/inspect/log?type=Nope", 400, "unknown event type 'Nope'"), ("/inspect/log?from=-3", 400, "from takes a position"),
            ("/inspect/log?at=yesterday", 400, "an ISO 8601 time"), ("/inspect/log?limit=5000", 400, "a page holds"),
        ] {
            let reply = try await inspector.get(path, cookie: cookie, json: true)
            let message = (reply.object?["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(reply.status == status && message.contains(words) && !message.contains("\n"), "\(path): \(reply.status) \(reply.body)")
            let page = try await inspector.get(path, cookie: cookie)
            #expect(page.status == status && page.body.contains("role=\"alert\""), "\(path)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.db)) == before, "the inspected file's bytes are unchanged")
    }

    @Test func aRuleFilePreviewIsRebuildDiffAndWritesNothing() async throws {
        let cli = try Self.importedAndrew()
        defer { cli.cleanUp() }
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        let rules = #"{"id":"brzycki-10","version":1,"e1rmFormula":"brzycki","e1rmRepCap":10}"#
        let file = cli.folder.appendingPathComponent("brzycki.json")
        try rules.write(to: file, atomically: true, encoding: .utf8)
        let inspector = try InspectorProcess(db: cli.db, folder: cli.folder)
        let cookie = try await inspector.signIn()

        let form = try await inspector.get("/inspect/rules", cookie: cookie)
        let csrf = try #require(
            form.body.range(of: #"name="csrf" value="[0-9a-f]+""#, options: .regularExpression).map {
                String(form.body[$0].dropFirst(#"name="csrf" value=""#.count).dropLast())
            })
        let preview = try await inspector.post("/inspect/rules", cookie: cookie, form: [("csrf", csrf), ("rules", rules)], json: true)
        let expected = try cli.run(["rebuild", "--diff", "--rules", file.path, "--json"]).json
        let diff = try #require(preview.object?["diff"] as? [Any])
        #expect(!diff.isEmpty && sameJSON(diff, expected?["diff"]), "\(preview.status)")
        let page = try await inspector.post("/inspect/rules", cookie: cookie, form: [("csrf", csrf), ("rules", rules)])
        #expect(page.status == 200 && page.body.contains("data-change=\"e1rmMoved\"") && page.body.contains("\(diff.count) changes"))
        // Weights are shown in the lifter's unit (lb here) under labels that do not say kg.
        #expect(page.body.contains(" lb") && !page.body.contains("Kg "), "a label still names kg beside a weight in lb")

        // Another site's form (no token), and a rule file that is not one: refused in one line.
        let forged = try await inspector.post("/inspect/rules", cookie: cookie, form: [("rules", rules)], json: true)
        #expect(forged.status == 403)
        for (bad, words) in [("{\"id\":", "not a JSON object"), (#"{"id":"x","version":1,"e1rmRepCap":99}"#, "e1rmRepCap must be 1…30")] {
            let reply = try await inspector.post("/inspect/rules", cookie: cookie, form: [("csrf", csrf), ("rules", bad)], json: true)
            let message = (reply.object?["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(reply.status == 400 && message.contains(words) && !message.contains("\n"), "\(reply.body)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.db)) == before)
    }

    @Test func aBundleOpensInMemoryAndAnEditedOneIsRefusedAtItsFirstBadPosition() async throws {
        let cli = try Self.importedAndrew()
        defer { cli.cleanUp() }
        let bundle = cli.folder.appendingPathComponent("audit.rlbundle").path
        let made = try cli.run(["export", "--bundle", bundle, "--json"])
        let head = try cli.eventCount()
        #expect(made.status == 0 && made.json?["events"] as? Int == head, "\(made.stderr)")
        let n = head / 3
        let prs = try cli.run(["prs", "--as-of", "\(n)", "--json"]).json, verify = try cli.run(["verify", "--json"]).json
        let files = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).sorted()

        // The bundle serves the pages the file did: the same records at the same position, the same chain.
        let inspector = try InspectorProcess(["--bundle", bundle], folder: cli.folder)
        let cookie = try await inspector.signIn()
        let at = try #require(try await inspector.get("/inspect/at/\(n)", cookie: cookie, json: true).object)
        let verified = try await inspector.get("/inspect/verify", cookie: cookie, json: true).json
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).sorted() == files, "opening a bundle writes no file")
        #expect(sameJSON(at["records"], prs))
        #expect(sameJSON(verified, verify))

        // An event edited by hand, a bundle from a newer release, a file that is no bundle: one line each, no server.
        var lines = try String(contentsOfFile: bundle, encoding: .utf8).components(separatedBy: "\n")
        let edited = 42  // the bundle's line 43: event 42, after the header line
        lines[edited] = lines[edited].replacingOccurrences(of: #""device":""#, with: #""device":"x"#)
        let editedFile = cli.folder.appendingPathComponent("edited.rlbundle").path
        try lines.joined(separator: "\n").write(toFile: editedFile, atomically: true, encoding: .utf8)
        let newer = cli.folder.appendingPathComponent("newer.rlbundle").path
        try lines[0].replacingOccurrences(of: #""version":1"#, with: #""version":2"#).write(toFile: newer, atomically: true, encoding: .utf8)
        for (file, status, words) in [
            (editedFile, Int32(3), "the hash of event 42 does not match"), (newer, 1, "version 2, from a newer RepLedger"),
            (cli.db, 1, "not a RepLedger audit bundle"),
        ] {
            let out = try cli.run(["inspect", "--bundle", file, "--listen", "127.0.0.1:0"], useDbFlag: false)
            #expect(out.status == status && out.stderr.contains(words) && out.stderr.split(separator: "\n").count == 1, "\(file): \(out.stderr)")
        }
    }

    @Test func aDamagedLedgerShowsItsFirstBadPositionOnThePage() async throws {
        let cli = try Self.importedAndrew()
        defer { cli.cleanUp() }
        let damaged = 40
        let db = try SQLiteDatabase(path: cli.db)
        try db.execute("DROP TRIGGER events_no_update")
        try db.execute("UPDATE events SET device = 'elsewhere' WHERE position = \(damaged)")
        let inspector = try InspectorProcess(db: cli.db, folder: cli.folder)
        let cookie = try await inspector.signIn()
        let page = try await inspector.get("/inspect/verify", cookie: cookie)
        #expect(page.status == 200 && page.body.contains("data-first-bad=\"\(damaged)\""))
        let json = try await inspector.get("/inspect/verify", cookie: cookie, json: true)
        #expect(sameJSON(json.json, try cli.run(["verify", "--json"]).json))
        // The pages still read: the log around the damage, a why whose proof fails there.
        let around = try await inspector.get("/inspect/log?from=\(damaged)", cookie: cookie).body
        #expect(around.contains("data-position=\"\(damaged)\""))
        // Every page says the log is damaged, and where.
        #expect(around.contains("id=\"damage\" data-first-bad=\"\(damaged)\""))
        #expect(try await inspector.get("/inspect/at/\(damaged + 10)", cookie: cookie).body.contains("id=\"damage\" data-first-bad=\"\(damaged)\""))
        let why = try await inspector.get("/inspect/why?subject=prs&target=Bench%20Press%20(Barbell)", cookie: cookie, json: true)
        let proof = try #require(why.object?["proof"] as? [String: Any])
        #expect(proof["ok"] as? Bool == false || (proof["from"] as? Int ?? 0) > damaged)
    }
}

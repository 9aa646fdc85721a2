import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerSQLite
import StoreKitTestSupport
import Testing

/// The Coach product (SERVER-CONTRACT.md §8) through the CLI on two devices and a real
/// server: an invite, an offered program, the client's acceptance, compliance
/// on the roster, and notes that stay in the coach's log.
@Suite(.serialized) struct CoachProductTests {
    /// A server that trusts a store root, and a coach holding a Coach product bought through it.
    static func coachedServer(_ cli: LedgerProcess) throws -> (ServerProcess, ServerProcess.Account, Device) {
        let chain = try StoreKitTestChain()
        let server = try ServerProcess(
            cli: cli, serveFlags: ["--storekit-root", try chain.writeRoot(in: cli.folder), "--bundle-id", StoreKitTestChain.bundleId])
        let coach = try server.createAccount("Coach Carl", coach: true)
        let carl = try Device("carl", cli: cli, token: coach.token)
        try carl.run([
            "purchase", "repledger_coach_monthly", "--transaction", "t-coach", "--purchased", "2026-01-01T00:00:00Z", "--expires",
            "2099-01-01T00:00:00Z", "--signed-transaction", try chain.signedTransaction(id: "t-coach", product: "repledger_coach_monthly"),
        ])
        guard try carl.sync(server, account: coach.id).status == 0 else { throw ServerFailure.cli("the coach did not sync") }
        return (server, coach, carl)
    }

    static func daysAgo(_ days: Double, hour: Int = 0) -> String {
        Timestamp(millis: Int64((Date().timeIntervalSince1970 - days * 86_400) * 1000)).iso8601
    }

    @Test func fromInviteToAnAcceptedProgramToCompliance() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let (server, coach, carl) = try Self.coachedServer(cli)
        let lina = try server.createAccount("Lina"), bob = try server.createAccount("Bob")
        let phone = try Device("lina", cli: cli, token: lina.token), bobs = try Device("bob", cli: cli, token: bob.token)
        try phone.run(["body", "log", "--weight", "61kg", "--at", Self.daysAgo(40)])
        try phone.run(["body", "log", "--weight", "62.5kg", "--at", Self.daysAgo(1)])
        #expect(try phone.sync(server, account: lina.id).status == 0)
        #expect(try bobs.sync(server, account: bob.id).status == 0)

        // The invite: a code shown once, listed without it.
        let invite = try #require(try carl.run(["coach", "invite", "--note", "Lina, Tuesdays", "--json"]).json)
        let code = try #require(invite["code"] as? String)
        #expect(code.count == 14 && code.split(separator: "-").count == 3)
        let listed = try #require(try carl.run(["coach", "invites", "--json"]).json?["invites"] as? [[String: Any]])
        #expect(listed.count == 1 && listed[0]["state"] as? String == "open" && listed[0]["note"] as? String == "Lina, Tuesdays")
        #expect(!(try carl.run(["coach", "invites", "--json"]).stdout.contains(code)))

        // Lina accepts (lower case, spaces for dashes, as typed from a message): the grant is in her log, she is on the roster.
        let accepted = try phone.run(["coach", "accept", code.lowercased().replacingOccurrences(of: "-", with: " "), "--json"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.json?["coachAccountId"] as? String == coach.id && accepted.json?["coachName"] as? String == "Coach Carl")
        #expect(phone.log.contains("\"type\":\"CoachAccessGranted\""))
        func roster() async throws -> [[String: Any]] {
            let reply = try await server.get("/v1/coach/clients", token: coach.token)
            return try #require(reply.json?["clients"] as? [[String: Any]], "\(reply.body)")
        }
        #expect(try await roster().map { $0["accountId"] as? String } == [lina.id])
        // The coach sees who used the invite, by name.
        let used = try #require(try carl.run(["coach", "invites", "--json"]).json?["invites"] as? [[String: Any]])
        #expect(used.first?["state"] as? String == "used" && used.first?["usedByName"] as? String == "Lina")
        #expect(try carl.run(["coach", "invites"]).stdout.contains("used by Lina"))
        // A retried accept by Lina is answered again; Bob gets 410 and no grant.
        let retried = try phone.run(["coach", "accept", code])
        #expect(retried.status == 0)
        // A coach who calls themself "Coach Carl" is not "Coach Coach Carl".
        #expect(retried.stdout == "Coach Carl may now read this log (synced)\n", "\(retried.stdout)")
        let reused = try bobs.run(["coach", "accept", code])
        #expect(reused.status == 1 && reused.stderr.contains("inviteUsed"), "\(reused.stderr)")
        #expect(!bobs.log.contains("CoachAccessGranted"))
        let direct = try await server.post("/v1/coach/invites/accept", token: bob.token, body: #"{"code":"\#(code)"}"#)
        #expect(direct.status == 410 && direct.errorCode == "inviteUsed")

        // A withdrawn code and an expired one: 410 inviteExpired; a code never made: 404.
        let second = try #require(try carl.run(["coach", "invite", "--json"]).json)
        #expect(try carl.run(["coach", "withdraw-invite", try #require(second["inviteId"] as? String)]).status == 0)
        let withdrawn = try await server.post("/v1/coach/invites/accept", token: bob.token, body: #"{"code":"\#(second["code"] as? String ?? "")"}"#)
        #expect(withdrawn.status == 410 && withdrawn.errorCode == "inviteExpired")
        let third = try #require(try carl.run(["coach", "invite", "--json"]).json)
        try CoachAccessTests().indexRows(server, "UPDATE coach_invites SET expires_at = 1 WHERE invite_id = '\(third["inviteId"] as? String ?? "")'")
        let expired = try bobs.run(["coach", "accept", try #require(third["code"] as? String)])
        #expect(expired.status == 1 && expired.stderr.contains("inviteExpired"))
        #expect(try await server.post("/v1/coach/invites/accept", token: bob.token, body: #"{"code":"0000-0000-0000"}"#).status == 404)
        #expect(try await server.post("/v1/coach/invites/accept", token: bob.token, body: "not json").status == 400)
        let states = try #require(try carl.run(["coach", "invites", "--json"]).json?["invites"] as? [[String: Any]]).compactMap {
            $0["state"] as? String
        }
        #expect(states.sorted() == ["expired", "revoked", "used"])
        // Invites are a coach's: a lifter without the product is refused.
        #expect(try await server.post("/v1/coach/invites", token: bob.token, body: "{}").status == 403)

        // Before a program: on the roster with no compliance (null, not 0), and needing attention (no workout in 7 days).
        var row = try #require(try await roster().first)
        #expect(row["compliance"] is NSNull && row["needsAttention"] as? Bool == true)
        #expect(row["reasons"] as? [String] == ["noWorkoutIn7Days"])
        #expect(row["bodyweightKg"] as? Double == 62.5 && row["bodyweightChange30DaysKg"] as? Double == 1.5)

        // Carl offers his program; nothing reaches Lina's log until her device accepts.
        #expect(
            try carl.run(["program", "questionnaire", "--days", "3", "--minutes", "60", "--experience", "beginner", "--equipment", "barbell"])
                .status == 0)
        #expect(try carl.run(["program", "generate", "--seed", "7"]).status == 0)
        let offered = try carl.id(["coach", "assign", lina.id, "--program", "active"], "assignmentId")
        #expect(try carl.sync().status == 0)
        #expect(!phone.log.contains("ProgramGenerated"))
        let offers = try #require(try phone.run(["coach", "assignments", "--json"]).json?["assignments"] as? [[String: Any]])
        #expect(offers.count == 1 && offers[0]["status"] as? String == "offered" && offers[0]["assignmentId"] as? String == offered)
        // Bob, who granted nothing, sees no offer to Lina and cannot read hers.
        #expect(try await server.get("/v1/accounts/\(lina.id)/assignments", token: bob.token).status == 403)

        // Lina keeps two programs of her own already: accepting a third removes her oldest (at most 2 live).
        #expect(
            try phone.run(["program", "questionnaire", "--days", "2", "--minutes", "45", "--experience", "beginner", "--at", Self.daysAgo(30)]).status
                == 0)
        let ownFirst = try phone.id(["program", "generate", "--seed", "1", "--at", Self.daysAgo(30)], "programId")
        let ownSecond = try phone.id(["program", "generate", "--seed", "2", "--at", Self.daysAgo(29)], "programId")
        let took = try phone.run(["coach", "accept-assignment", String(offered.prefix(8)), "--at", Self.daysAgo(10), "--json"])
        #expect(took.status == 0, "\(took.stderr)")
        let programId = try #require(took.json?["programId"] as? String)
        let programs = try #require(try phone.run(["program", "list", "--json"]).json?["programs"] as? [[String: Any]])
        #expect(Set(programs.compactMap { $0["programId"] as? String }) == [ownSecond, programId])
        #expect(!programs.contains { $0["programId"] as? String == ownFirst })
        // Every event of the acceptance is caused by the coach's offer event.
        let offerEvent = try #require(offers[0]["offerEventId"] as? String)
        let lines = phone.log.split(separator: "\n").filter { $0.contains("\"causationId\":\"\(offerEvent)\"") }
        #expect(lines.contains { $0.contains("AssignmentAnswered") } && lines.contains { $0.contains("ProgramGenerated") })
        #expect(lines.contains { $0.contains("ProgramActivated") })
        #expect(try phone.run(["coach", "accept-assignment", offered]).status == 1)  // answered already
        let after = try #require(try phone.run(["coach", "assignments", "--json"]).json?["assignments"] as? [[String: Any]])
        #expect(after.first?["status"] as? String == "accepted")

        // A template offered and declined: only the answer reaches Lina's log.
        #expect(
            try carl.run(["template", "create", "Carl's push", "--exercise", "Bench Press (Barbell)", "--exercise", "Overhead Press (Barbell)"])
                .status == 0)
        let template = try carl.id(["coach", "assign", lina.id, "--template", "Carl's push"], "assignmentId")
        #expect(try carl.sync().status == 0)
        #expect(try phone.run(["coach", "decline-assignment", template]).status == 0)
        let answered = try #require(try phone.run(["coach", "assignments", "--json"]).json?["assignments"] as? [[String: Any]])
        #expect(answered.first { $0["assignmentId"] as? String == template }?["status"] as? String == "declined")
        #expect(!phone.log.contains("Carl's push"))
        #expect(try phone.run(["coach", "accept-assignment", template]).status == 1)  // declined stays declined
        // A template with targets, offered and accepted: Lina's copy keeps every weight, duration and rest.
        #expect(
            try carl.run([
                "template", "create", "Carl's pull", "--exercise", "Deadlift (Barbell)", "--sets", "4", "--reps", "5", "--weight", "100kg",
                "--rest", "180s", "--exercise", "Plank", "--sets", "2", "--duration", "45",
            ]).status == 0)
        let pull = try carl.id(["coach", "assign", lina.id, "--template", "Carl's pull"], "assignmentId")
        #expect(try carl.sync().status == 0)
        let withTargets = try #require(try phone.run(["coach", "assignments", "--json"]).json?["assignments"] as? [[String: Any]])
        #expect((withTargets.first { $0["assignmentId"] as? String == pull }?["targets"] as? [String: Any])?["lines"] != nil)
        #expect(try phone.run(["coach", "accept-assignment", pull]).status == 0)
        let carlsLines = try #require(
            (try carl.run(["template", "list", "--json"]).json?["templates"] as? [[String: Any]])?.first { $0["name"] as? String == "Carl's pull" }?[
                "lines"] as? [[String: Any]])
        let linasLines = try #require(
            (try phone.run(["template", "list", "--json"]).json?["templates"] as? [[String: Any]])?.first { $0["name"] as? String == "Carl's pull" }?[
                "lines"] as? [[String: Any]])
        #expect(linasLines.map { NSDictionary(dictionary: $0) } == carlsLines.map { NSDictionary(dictionary: $0) }, "\(linasLines)")
        #expect(linasLines.first?["weightKg"] as? Double == 100 && linasLines.first?["restSeconds"] as? Int == 180)
        #expect(linasLines.last?["durationSeconds"] as? Int == 45)
        // Carl sees his offers to Lina with her answers.
        let seen = try #require(
            try await server.get("/v1/accounts/\(lina.id)/assignments", token: coach.token).json?["assignments"] as? [[String: Any]])
        #expect(seen.compactMap { $0["status"] as? String }.sorted() == ["accepted", "accepted", "declined"])

        // Three program days done, 9, 5 and 2 days ago: 2 of 3 planned this week, 3 of 30/7 × … since the program began.
        for (i, ago) in [9.0, 5.0, 2.0].enumerated() {
            let w = try phone.id(["workout", "start", "--program", "active", "--day", String(i + 1), "--at", Self.daysAgo(ago)], "workoutId")
            try phone.run(["workout", "log", w, "Squat (Barbell)", "--reps", "5", "--weight", "\(80 + i * 5)kg", "--at", Self.daysAgo(ago - 0.01)])
            try phone.run(["workout", "finish", w, "--at", Self.daysAgo(ago - 0.02)])
        }
        #expect(try phone.sync().status == 0)
        row = try #require(try await roster().first)
        let compliance = try #require(row["compliance"] as? [String: Any])
        #expect(compliance["sessions7"] as? Double == 0.667)
        #expect(compliance["sessions30"] as? Double == 0.7)
        #expect((compliance["sets7"] as? Double ?? 1) < 0.5)  // one set logged of each day's planned sets
        #expect(row["needsAttention"] as? Bool == false && row["workoutsLast7Days"] as? Int == 2 && row["daysSinceLastWorkout"] as? Int == 2)
        #expect((row["weeklyVolumeKg"] as? NSNumber)?.doubleValue == Double(5 * 85 + 5 * 90))
        // The client's progress document carries the roster's figures and the page's.
        let progress = try #require(try await server.get("/v1/accounts/\(lina.id)/progress", token: coach.token).json)
        #expect((progress["compliance"] as? [String: Any])?["sessions30"] as? Double == 0.7)
        #expect((progress["weeks"] as? [Any])?.count == 4 && (progress["lastSession"] as? [String: Any])?["name"] != nil)

        // Notes live in Carl's log only, sealed on the server.
        #expect(try carl.run(["coach", "note", lina.id, "Knees cave on the last squat set"]).status == 0)
        #expect(try carl.sync().status == 0)
        #expect(carl.log.contains("CoachNoteAdded") && !phone.log.contains("CoachNoteAdded"))
        #expect(try phone.sync().status == 0)
        #expect(!phone.log.contains("Knees cave"))
        if !ServerProcess.onPostgres {
            let folder = server.data + "/accounts"
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(coach.id) }
            #expect(files.contains("\(coach.id).sqlite"))
            for file in files {
                let stored = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))
                #expect(stored.range(of: Data("Knees cave".utf8)) == nil, "\(file) holds the note in clear")
            }
        }
        // A note names its client by account id or by name; a name no client has, or an empty note, is refused, nothing recorded.
        #expect(try carl.run(["coach", "note", "nobody", "x"]).status != 0)
        #expect(!carl.log.contains("\"text\":\"x\""))
        #expect(try carl.run(["coach", "note", lina.id, "  "]).status == 1)
    }
}

import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOHTTP1
import Testing

/// The coach dashboard in a real browser (headless Chromium through
/// chromedriver) against a real `ledger serve`: sign in, the roster's order,
/// a client's page whose figures are the API's, a note, an offer, sign out,
/// and the refusals (a client without a grant, a signed-out browser, a form
/// without its CSRF token).
@Suite(
    .serialized, .enabled(if: Browser.available || Browser.required, "chromium and chromedriver are not installed"),
    .disabled(if: ServerProcess.onPostgres, "the pages come from the queries the HTTP suites run on PostgreSQL; sessions are in memory"))
struct CoachDashboardBrowserTests {
    @Test func aCoachSignsInFollowsClientsNotesAssignsAndSignsOut() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let (server, coach, carl) = try CoachProductTests.coachedServer(cli)
        #expect(
            try carl.run(["program", "questionnaire", "--days", "3", "--minutes", "60", "--experience", "beginner", "--equipment", "barbell"]).status
                == 0)
        #expect(try carl.run(["program", "generate", "--seed", "5"]).status == 0)
        #expect(try carl.sync().status == 0)

        // Ada trained two days ago; Bo never did (needs attention, so first); Cy granted nothing.
        let ada = try server.createAccount("Ada"), bo = try server.createAccount("Bo"), cy = try server.createAccount("Cy")
        let adas = try Device("ada", cli: cli, token: ada.token), bos = try Device("bo", cli: cli, token: bo.token)
        let w = try adas.id(["workout", "start", "--name", "Legs", "--at", CoachProductTests.daysAgo(2)], "workoutId")
        try adas.run(["workout", "log", w, "Squat (Barbell)", "--reps", "5", "--weight", "100kg", "--at", CoachProductTests.daysAgo(1.99)])
        try adas.run(["workout", "finish", w, "--at", CoachProductTests.daysAgo(1.98)])
        try adas.run(["body", "log", "--weight", "70kg"])
        // Deadlifts half a year ago, more sets than her squat: outside the e1RM chart's 12 weeks, so not on it.
        let old = try adas.id(["workout", "start", "--name", "Pull", "--at", CoachProductTests.daysAgo(200)], "workoutId")
        for set in 0..<4 {
            try adas.run([
                "workout", "log", old, "Deadlift (Barbell)", "--reps", "5", "--weight", "120kg", "--at",
                CoachProductTests.daysAgo(199.99 - Double(set) * 0.001),
            ])
        }
        try adas.run(["workout", "finish", old, "--at", CoachProductTests.daysAgo(199.9)])
        // Her own program, on every weekday from three days ago: the weeks table marks those days as planned.
        try adas.run(["program", "questionnaire", "--days", "3", "--minutes", "45", "--experience", "beginner", "--at", CoachProductTests.daysAgo(3)])
        try adas.run(["program", "generate", "--seed", "3", "--at", CoachProductTests.daysAgo(3)])
        try adas.run(["program", "schedule", "active", "mon,tue,wed,thu,fri,sat,sun", "--at", CoachProductTests.daysAgo(3)])
        for (device, account) in [(adas, ada), (bos, bo)] {
            try device.run(["coach", "grant", coach.id])
            #expect(try device.sync(server, account: account.id).status == 0)
        }

        let browser = try await Browser()
        do {
            try await walkThrough(browser, server: server, coach: coach, carl: carl, ada: ada, bo: bo, cy: cy, adas: adas)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    func walkThrough(
        _ browser: Browser, server: ServerProcess, coach: ServerProcess.Account, carl: Device, ada: ServerProcess.Account,
        bo: ServerProcess.Account, cy: ServerProcess.Account, adas: Device
    ) async throws {
        // Signed out: the dashboard sends the browser to sign in.
        try await browser.open(server.base + "/coach")
        #expect(try await browser.url(becoming: server.base + "/coach/sign-in") == server.base + "/coach/sign-in")
        // A wrong token is refused on the page, in one line.
        try await browser.find("#token").type("rl_not-a-token")
        try await browser.find("#sign-in").click()
        #expect(try await browser.await(".error").text == "That token is not valid on this server.")
        try await browser.find("#token").type(coach.token)
        try await browser.find("#sign-in").click()
        #expect(try await browser.url(becoming: server.base + "/coach") == server.base + "/coach")
        #expect(!(try await browser.url).contains(coach.token))

        // The session cookie: HttpOnly, SameSite=Strict (no Secure on loopback, where it is plain HTTP).
        let session = try #require(try await browser.cookies().first { $0["name"] as? String == "rl_session" })
        #expect(session["httpOnly"] as? Bool == true && session["sameSite"] as? String == "Strict")
        let cookie = "rl_session=\(session["value"] as? String ?? "")"

        // The roster: needs-attention first, every figure the API's.
        let rows = try await browser.all("tr[data-client]")
        let order = try await rows.asyncMap { try await $0.attribute("data-client") ?? "" }
        #expect(order == [bo.id, ada.id])
        let api = try #require(try await server.get("/v1/coach/clients", token: coach.token).json?["clients"] as? [[String: Any]])
        #expect(api.map { $0["accountId"] as? String } == [bo.id, ada.id])
        let adaRow = try await rows[1].text
        let volume = try #require((api[1]["weeklyVolumeKg"] as? NSNumber)?.doubleValue)
        #expect(adaRow.contains("\(Int(volume)) kg") && adaRow.contains("70 kg") && adaRow.contains("2 days ago"))
        #expect(try await rows[0].text.contains("no workout yet"))

        // An invite made in the browser: its code shown once on the page, listed by the API without it.
        try await browser.find("#invite-note").type("Gym floor, Tuesday")
        try await browser.find("#make-invite").click()
        let code = try await browser.await("#new-invite .code").text
        let pageURL = try await browser.url
        #expect(code.count == 14 && !pageURL.contains(code))
        let invites = try #require(try await server.get("/v1/coach/invites", token: coach.token).json?["invites"] as? [[String: Any]])
        #expect(invites.contains { $0["note"] as? String == "Gym floor, Tuesday" && $0["state"] as? String == "open" })
        #expect(!(try await server.get("/v1/coach/invites", token: coach.token).body.contains(code)))
        try await browser.open(server.base + "/coach")
        let rosterRows = try await browser.all("tr[data-client]")

        // Ada's page: the API's figures, her last session, the charts.
        try await rosterRows[1].all("a").first?.click()
        #expect(try await browser.url(becoming: server.base + "/coach/clients/\(ada.id)") == server.base + "/coach/clients/\(ada.id)")
        #expect(try await browser.find("#client-name").text == "Ada")
        let progress = try #require(try await server.get("/v1/accounts/\(ada.id)/progress", token: coach.token).json)
        #expect(try await browser.find("#stat-workouts7 b").text == "\(progress["workoutsLast7Days"] as? Int ?? -1)")
        #expect(try await browser.find("#stat-volume b").text == "\(Int(volume)) kg")
        #expect(try await browser.find("#last-session").text.contains("100 kg × 5"))
        #expect(try await browser.all("svg").count >= 1)
        // Her record reads as a lifter would: the set, then what it set, rep maxes folded.
        let record = try await browser.find("#records tbody tr").text
        #expect(record.contains("Squat (Barbell) 100 kg × 5") && record.contains("heaviest 100 kg") && record.contains("1RM–5RM"), "\(record)")
        #expect(!record.contains("repMax"))
        // The e1RM chart follows the lifts of its 12 weeks: the squat, not the deadlifts of half a year ago.
        let chart = try await browser.find("#e1rm .caption").text
        #expect(chart.contains("Squat (Barbell)") && !chart.contains("Deadlift"), "\(chart)")
        // Planned days are marked: as many as the API's weeks plan (trained ones marked done, with "planned" in their title).
        let weeks = try #require(progress["weeks"] as? [[String: Any]])
        let plannedDays = weeks.flatMap { ($0["plannedDays"] as? [String]) ?? [] }
        #expect(!plannedDays.isEmpty)
        let open = try await browser.all("td.day.planned").count
        let trainedOnPlan = try await browser.all("td.day.done").asyncMap { try await $0.attribute("title") ?? "" }.filter { $0.contains("planned") }
            .count
        #expect(open + trainedOnPlan == plannedDays.count && trainedOnPlan == 1, "\(open) + \(trainedOnPlan) vs \(plannedDays)")

        // A note: added through the form, shown, and in Carl's log only.
        try await browser.find("#note").type("Brace harder out of the hole")
        try await browser.find("#add-note").click()
        #expect(try await browser.await("ul.notes li").text.contains("Brace harder out of the hole"))
        let carlsEvents = try await server.get("/v1/accounts/\(coach.id)/events", token: coach.token).body
        #expect(carlsEvents.contains("\"CoachNoteAdded\"") && carlsEvents.contains("\"device\":\"coach dashboard\""))
        #expect(!(try await server.get("/v1/accounts/\(ada.id)/events", token: ada.token).body.contains("Brace harder")))

        // An offer: Carl's program, listed as offered, and Ada's device sees it.
        try await browser.find("#assign-button").click()
        #expect(try await browser.await("table.offers .status").text == "offered")
        let offers = try #require(try adas.run(["coach", "assignments", "--json"]).json?["assignments"] as? [[String: Any]])
        #expect(offers.count == 1 && offers[0]["kind"] as? String == "program")

        // A form without its CSRF token is refused and records nothing.
        let forged = try await server.request(
            .POST, "/coach/clients/\(ada.id)/notes", token: nil, body: "text=forged",
            headers: [("Cookie", cookie), ("Content-Type", "application/x-www-form-urlencoded")])
        #expect(forged.status == 403)
        #expect(!(try await server.get("/v1/accounts/\(coach.id)/events", token: coach.token).body.contains("forged")))

        // Cy granted nothing: her page is refused (403), in the browser and over HTTP.
        try await browser.open(server.base + "/coach/clients/\(cy.id)")
        #expect(try await browser.find("h1").text == "Not yours to see")
        #expect(try await server.request(.GET, "/coach/clients/\(cy.id)", token: nil, headers: [("Cookie", cookie)]).status == 403)

        // A phone-width window still shows every client.
        try await browser.resize(width: 390, height: 844)
        try await browser.open(server.base + "/coach")
        #expect(try await browser.all("tr[data-client]").count == 2)
        try await browser.resize(width: 1280, height: 1000)

        // Sign out: the session ends; a client's page sends the browser to sign in again.
        try await browser.find("button.link").click()
        #expect(try await browser.url(becoming: server.base + "/coach/sign-in") == server.base + "/coach/sign-in")
        try await browser.open(server.base + "/coach/clients/\(ada.id)")
        #expect(try await browser.url(becoming: server.base + "/coach/sign-in") == server.base + "/coach/sign-in")
        // The old cookie opens nothing either (the client follows the redirect to the sign-in form).
        let stale = try await server.request(.GET, "/coach", token: nil, headers: [("Cookie", cookie)])
        #expect(stale.body.contains("id=\"sign-in\"") && !stale.body.contains("data-client"))
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for e in self { out.append(try await transform(e)) }
        return out
    }
}

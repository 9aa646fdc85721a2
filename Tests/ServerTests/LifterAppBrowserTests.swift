import Foundation
import LedgerTestSupport
import Testing

/// The lifter's app under a real `ledger serve` in a real browser (headless Chromium through chromedriver): a
/// person signs up by an emailed code, opens the app from the account page, starts a workout and logs sets, and
/// a watch (a `ledger` device syncing) logs into the same workout, shown through the live stream;
/// with the network cut (the DevTools protocol's network conditions) the sets wait in the outbox, counted
/// exactly, and reach the server once when it returns; with the server killed, the app opens from its service
/// worker and a set waits through the restart and a new sign-in; a set the server refuses is shown with its
/// one-line reason until discarded, and a write without the session's CSRF token appends nothing.
@Suite(
    .serialized, .enabled(if: Browser.available || Browser.required, "chromium and chromedriver are not installed"),
    .disabled(if: ServerProcess.onPostgres, "the app's commands run on PostgreSQL in CommandAPITests; page sessions are in memory"))
struct LifterAppBrowserTests {
    @Test func aSignedUpLifterLogsAWorkoutOnlineAndOfflineAndEverySetReachesTheServerOnce() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let mail = try CapturedMail(in: cli.folder)
        let server = try ServerProcess(cli: cli, serveFlags: ["--mail-command", mail.command])
        let browser = try await Browser(width: 390, height: 844)
        do {
            try await walkThrough(browser, server: server, mail: mail, cli: cli)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    func walkThrough(_ browser: Browser, server: ServerProcess, mail: CapturedMail, cli: LedgerProcess) async throws {
        // Signed up on the account page by an emailed code, then the app, with a session cookie of its own.
        let base = server.base
        try await AppSteps.signUp(browser, server: server, mail: mail, email: "lina@example.org")
        // A watch of the same account, added on the account page (its token shown once).
        let accountId = try await browser.await("#account-id").text
        try await browser.find("#device").type("watch")
        try await browser.find("#add-device").click()
        let watch = try Device("watch", cli: cli, token: try await browser.await("#new-token").text)
        try await browser.find("#open-app").click()
        #expect(try await browser.url(becoming: base + "/app") == base + "/app")
        let cookie = try #require(try await browser.cookies().first { $0["name"] as? String == "rl_app" })
        #expect(cookie["httpOnly"] as? Bool == true && cookie["sameSite"] as? String == "Strict")
        // Its files under content-hashed names, kept a year; the service worker at its fixed address, revalidated.
        let scripts = try await browser.execute(
            "return [...document.querySelectorAll('script[src], link[rel=stylesheet]')].map(e => e.src || e.href)")
        let files = try #require(scripts as? [String])
        #expect(
            files.count == 2 && files.allSatisfy { $0.range(of: #"/app/app\.[0-9a-f]{10}\.(js|css)$"#, options: .regularExpression) != nil },
            "\(files)")
        for file in files {
            let reply = try await server.get(String(file.dropFirst(base.count)), token: nil)
            #expect(reply.status == 200 && reply.headers["cache-control"] == "public, max-age=31536000, immutable", "\(file)")
        }
        let worker = try await server.get("/app/sw.js", token: nil)
        #expect(worker.headers["cache-control"] == "no-cache" && files.allSatisfy { worker.body.contains($0.dropFirst(base.count)) })

        // A workout started and three sets logged: each shows at once, then as the server's.
        try await browser.await("#start").click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        for reps in ["5", "5", "4"] { try await AppSteps.logSet(browser, "Squat (Barbell)", kg: "100", reps: reps) }
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        let squat = "[data-exercise='Squat (Barbell)']"
        _ = try await browser.await("\(squat) [data-set-id]:nth-child(3)")

        // The watch syncs, logs a set into the same workout and syncs again: the browser shows it, through the live stream.
        #expect(try watch.sync(server, account: accountId).status == 0)
        #expect(try watch.run(["workout", "log", "last", "Squat (Barbell)", "--reps", "3", "--weight", "110kg"]).status == 0)
        #expect(try watch.sync().status == 0)
        _ = try await browser.await("\(squat) [data-set-id]:nth-child(4)")

        // The network cut: two sets wait in the outbox, counted exactly, marked pending; then they reach the server, once.
        try await AppSteps.offline(browser, true)
        try await AppSteps.logSet(browser, "Squat (Barbell)", kg: "90", reps: "8")
        #expect(try await AppSteps.pending(browser, becoming: 1) == 1)
        try await AppSteps.logSet(browser, "Squat (Barbell)", kg: "90", reps: "8")
        #expect(try await AppSteps.pending(browser, becoming: 2) == 2)
        #expect(try await browser.all("\(squat) [data-pending-set]").count == 2)
        try await AppSteps.offline(browser, false)
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        _ = try await browser.await("\(squat) [data-set-id]:nth-child(6)")

        // The server gone (its process killed): the app still opens, from the service worker's copy, with the
        // workout as the server last answered it; a set logged now waits, counted.
        let controlled = Date().addingTimeInterval(60)
        while try await browser.execute("return navigator.serviceWorker.controller !== null") as? Bool != true, Date() < controlled {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try await browser.execute("return navigator.serviceWorker.controller !== null") as? Bool == true, "no service worker took the page")
        server.kill()
        try await browser.open(base + "/app")
        _ = try await browser.await("\(squat) [data-set-id]:nth-child(6)")
        try await AppSteps.logSet(browser, "Squat (Barbell)", kg: "80", reps: "10")
        #expect(try await AppSteps.pending(browser, becoming: 1) == 1)
        // Back, but a restart ended the browser's sessions: the set is not refused, it waits for a new sign-in…
        try server.start()
        _ = try await browser.await("#signed-out:not([hidden])")
        #expect(try await AppSteps.pending(browser, becoming: 1) == 1)
        #expect(try await browser.all("#refused [role=alert]").isEmpty)
        // …and reaches the server once the lifter has signed in again and opened the app.
        try await browser.open(base + "/account/sign-in")
        try await browser.await("#email").type("lina@example.org")
        try await browser.find("#send-code").click()
        _ = try await browser.await("#code")
        let again = try #require(try mail.code(to: "lina@example.org", message: 2), "no second code was mailed")
        try await browser.find("#code").type(again)
        try await browser.find("#verify").click()
        #expect(try await browser.url(becoming: base + "/account") == base + "/account")
        try await browser.find("#open-app").click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        _ = try await browser.await("\(squat) [data-set-id]:nth-child(7)")

        // Bad input: a weight past the server's bound is refused at the field, and sends nothing…
        try await AppSteps.logSet(browser, "Squat (Barbell)", kg: "5000", reps: "5")
        #expect(try await browser.execute("return document.querySelector('#log input[name=weight]').validity.valid") as? Bool == false)
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        // …and what only the server can judge (an exercise the library lacks) shows its one-line reason until discarded.
        try await AppSteps.logSet(browser, "Zercher Yoke Walk", kg: "50", reps: "5")
        let refusal = try await browser.await("#refused [role=alert]").text
        #expect(refusal.contains("Zercher Yoke Walk") && !refusal.contains("\n"), "\(refusal)")
        #expect(try await AppSteps.pending(browser, becoming: 1) == 1)
        try await browser.find("#refused [data-discard]").click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        // Letters in reps: the number field takes none, and nothing is sent.
        try await AppSteps.logSet(browser, "Squat (Barbell)", kg: "100", reps: "five")
        #expect(try await browser.execute("return document.querySelector('#log input[name=reps]').validity.valid") as? Bool == false)
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        // HTML in an exercise name comes back in the server's one line as text, never as markup.
        let markup = "<img src=x onerror=alert(1)>"
        try await AppSteps.logSet(browser, markup, kg: "50", reps: "5")
        let shown = try await browser.await("#refused [role=alert]").text
        let images = try await browser.all("#refused img").count
        #expect(shown.contains(markup) && images == 0, "\(shown)")
        try await browser.find("#refused [data-discard]").click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        // A 10 kB note past the field's 1,000 characters (put there as a script could): the server's one line, the
        // workout not finished, and nothing appended.
        _ = try await browser.execute("document.querySelector('#finish-form textarea[name=note]').value = 'n'.repeat(10240)")
        try await browser.find("#finish").click()
        let long = try await browser.await("#refused [role=alert]").text
        #expect(long.contains("note") && long.contains("1000") && !long.contains("\n"), "\(long)")
        try await browser.find("#refused [data-discard]").click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)

        // A reload shows what the server holds: seven sets, each once; the watch sees the same workout.
        try await browser.open(base + "/app")
        _ = try await browser.await("\(squat) [data-set-id]:nth-child(7)")
        let ids = try await browser.all("\(squat) [data-set-id]").asyncMap { try await $0.attribute("data-set-id") ?? "" }
        #expect(ids.count == 7 && Set(ids).count == 7, "\(ids)")
        #expect(try watch.sync().status == 0)
        let onWatch = try watch.run(["workout", "show", "last", "--json"]).stdout
        #expect(ids.allSatisfy(onWatch.contains), "the watch's workout differs from the browser's")
        try await browser.find("#finish").click()
        _ = try await browser.await("#start:not([hidden])")
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)

        // History: the finished workout by its week, its sets as the server counts them, kept for offline with its time.
        try await browser.find("#tab-history").click()
        _ = try await browser.await("#history [data-workout][data-sets='7']")
        #expect(try await browser.await("#history-as-of").text.hasPrefix("As the server answered at"))
        let weeks = try await browser.all("#history [data-week]").count
        let workoutHidden = try await browser.find("#workout-screen").attribute("hidden")
        #expect(weeks == 1 && workoutHidden != nil)
        // An exercise, opened from its line there: its records as the server gives them (each linking to its why),
        // and its e1RM by workout drawn from the server's points.
        try await browser.find("#history [data-workout] summary").click()
        try await browser.find("#history [data-open-exercise='Squat (Barbell)']").click()
        let heaviest = try await browser.await("#exercise-screen:not([hidden]) [data-record='heaviest']")
        #expect(try await heaviest.attribute("data-value") == "110", "the heaviest squat is the watch's 110 kg")
        #expect(try await browser.find("[data-record='heaviest'] a").attribute("href") == "/inspect/why?subject=prs&target=Squat%20(Barbell)")
        #expect(try await browser.all("#exercise-chart circle").count == 1)
        // Body: a weigh-in through the outbox, then the server's list and line; the watch syncs the same weigh-in.
        try await browser.find("#tab-body").click()
        try await browser.await("#weigh-in input[name=weight]").type("81.5")
        try await browser.find("#weigh-in button[type=submit]").click()
        let weighIn = try await browser.await("#weigh-ins [data-measurement]")
        #expect(try await weighIn.text.hasSuffix(": 81.5 kg"))
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        #expect(try await browser.all("#body-chart circle").count == 1)
        #expect(try watch.sync().status == 0)
        #expect(try watch.run(["body", "history", "--json"]).stdout.contains(#""weightKg":81.5"#))
        try await browser.find("#tab-history").click()
        try await AppSteps.offline(browser, true)
        try await browser.open(base + "/app")
        try await browser.await("#tab-history").click()
        _ = try await browser.await("#history [data-workout][data-sets='7']")
        try await AppSteps.offline(browser, false)
        try await browser.open(base + "/app")

        // The session cookie reads; a write needs the session's CSRF token beside it, which another site cannot send.
        let current = try #require(try await browser.cookies().first { $0["name"] as? String == "rl_app" })
        let session = try #require(current["value"] as? String)
        let account = try #require(try await browser.execute("return document.querySelector('meta[name=repledger-account]').content") as? String)
        func request(_ method: String, _ path: String, csrf: String?) throws -> String {
            let body = #"{"command":"start_workout","args":{},"requestId":"forged"}"#
            let socket = try RawSocket(port: server.port)
            socket.send(
                "\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: rl_app=\(session)\r\n"
                    + (csrf.map { "X-CSRF-Token: \($0)\r\n" } ?? "") + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                    + (method == "POST" ? body : ""))
            return socket.read(for: 60, until: RawSocket.wholeResponse).text
        }
        #expect(try request("GET", "/v1/accounts/\(account)/summary/last", csrf: nil).hasPrefix("HTTP/1.1 200"))
        for csrf in [nil, "forged"] {
            let forged = try request("POST", "/v1/accounts/\(account)/commands", csrf: csrf)
            #expect(forged.hasPrefix("HTTP/1.1 403") && forged.contains("X-CSRF-Token"), "\(forged.prefix(200))")
        }
        // Nothing was appended: the last workout is still the finished one.
        let last = try request("GET", "/v1/accounts/\(account)/summary/last", csrf: nil)
        #expect(last.contains(#""finishedAt":"20"#), "a forged start began a workout: \(last.suffix(300))")

        // Today: the next session as the server plans it, each target as `ledger next` gives it; the last workout again.
        try await browser.find("#tab-today").click()
        let target = try await browser.await("#targets [data-exercise='Squat (Barbell)']")
        #expect(try watch.sync().status == 0)
        let planned = try #require(
            (try watch.run(["next", "--json"]).json?["targets"] as? [[String: Any]])?.first { $0["exercise"] as? String == "Squat (Barbell)" })
        #expect(try await target.attribute("data-weight-kg") == (planned["weightKg"] as? Double).map { $0.formatted(.number.grouping(.never)) })
        try await browser.find("#repeat-last").click()
        _ = try await browser.await("#workout-screen:not([hidden]) #log:not([hidden])")
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        #expect(try watch.sync().status == 0)
        let repeated = try watch.run(["workout", "show", "last", "--json"]).stdout
        #expect(repeated.contains("Squat (Barbell)") && !repeated.contains(#""finishedAt":"20"#), "\(repeated.prefix(300))")
        // Last time's sets on the card link to the inspector's why for that hint.
        let hint = try await browser.await("[data-exercise='Squat (Barbell)'] a[data-why=hint]").attribute("href") ?? ""
        #expect(hint.hasPrefix("/inspect/why?subject=hint&target=Squat%20(Barbell)&workout="), "\(hint)")
    }
}

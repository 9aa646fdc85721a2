import Foundation
import LedgerTestSupport
import Testing

/// A program day trained in the lifter's app, in real Chromium against a real `ledger serve`: a lifter signs up by
/// an emailed code, starts today's program day, links a superset, completes every planned set with one tap (one of
/// them changed with a stepper), rests (the timer given 15 s more, then dismissed), and finishes with a feeling.
/// The server's events for that workout equal, type by type and value by value, those the same workout made
/// through `ledger` on a device of its own. With `REPLEDGER_SCREENSHOTS=DIR` the test saves the workout screen
/// at 390 × 844 and at desktop width there.
@Suite(
    .serialized, .enabled(if: Browser.available || Browser.required, "chromium and chromedriver are not installed"),
    .disabled(if: ServerProcess.onPostgres, "the app's commands run on PostgreSQL in CommandAPITests; page sessions are in memory"))
struct LifterAppWorkoutBrowserTests {
    @Test func aProgramDayTrainedInTheAppRecordsWhatTheCLIRecordsForTheSameWorkout() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let mail = try CapturedMail(in: cli.folder)
        let server = try ServerProcess(cli: cli, serveFlags: ["--mail-command", mail.command])
        let browser = try await Browser(width: 390, height: 844)
        do {
            try await trainADay(browser, server: server, mail: mail, cli: cli)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    func trainADay(_ browser: Browser, server: ServerProcess, mail: CapturedMail, cli: LedgerProcess) async throws {
        try await AppSteps.signUp(browser, server: server, mail: mail, email: "noor@example.org")
        let accountId = try await browser.await("#account-id").text
        try await browser.find("#device").type("watch")
        try await browser.find("#add-device").click()
        let watch = try Device("watch", cli: cli, token: try await browser.await("#new-token").text)
        // The program made on the watch, as `program generate` makes it, and synced; its twin made the same way.
        let twin = try Device("twin", cli: cli, token: "never-used")
        for device in [watch, twin] {
            let answers = ["--days", "3", "--minutes", "45", "--experience", "beginner", "--equipment", "full-gym"]
            #expect(try device.run(["program", "questionnaire"] + answers).status == 0)
            #expect(try device.run(["program", "generate", "--seed", "3"]).status == 0)
        }
        #expect(try watch.sync(server, account: accountId).status == 0)

        // Today: the program's day, started with one tap.
        try await browser.find("#open-app").click()
        try await browser.await("#tab-today").click()
        // Each target links to its why, which the inspector shows at once (opening the app opened it too): the
        // progression settings and the reason the Today screen gave.
        let reason = try await browser.await("#targets li[data-exercise]:first-child .caption").text
        let why = try #require(try await browser.find("#targets li[data-exercise]:first-child a[data-why=target]").attribute("href"))
        #expect(why.hasPrefix("/inspect/why?subject=target&target="), "\(why)")
        try await browser.open(server.base + why)
        let computation = try await browser.await(".computation").text
        #expect(computation.contains(reason) && computation.contains("progression"), "\(computation)")
        try await browser.open(server.base + "/app")
        try await browser.await("#tab-today").click()
        try await browser.await("#start-day:not([hidden])").click()
        let firstPlanned = "#exercises [data-planned] button[data-complete]"
        _ = try await browser.await(firstPlanned)
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        #expect(try await browser.all("#exercises [data-exercise] [data-target]").count > 1, "each exercise shows its target")

        // The first two exercises as a superset.
        let cards = try #require(
            try await browser.execute("return [...document.querySelectorAll('#exercises [data-exercise]')].map(e => e.dataset.exercise)") as? [String]
        )
        try #require(cards.count >= 2, "a program day of one exercise: \(cards)")
        try await browser.find("#exercises [data-exercise]:first-child button[data-superset-next]").click()
        _ = try await browser.await("#exercises [data-exercise]:nth-child(2)[data-superset='A']")
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)

        // Every planned set completed with one tap, in order: the first with a weight typed in, the last a rep short by
        // its stepper, the rest as planned. Each starts the exercise's rest; the first is given 15 s more, the last dismissed.
        var completed: [(set: String, changes: [String])] = []
        while try await !browser.all(firstPlanned).isEmpty {
            let set = try #require(try await browser.find(firstPlanned).attribute("data-complete"))
            let done = try await browser.find("button[data-complete='\(set)']")
            let remaining = try await browser.all(firstPlanned).count
            var changes: [String] = []
            if completed.isEmpty {
                try await browser.find("[data-set-id='\(set)'] input[name=weight]").type("42.5")
                changes = ["--weight", "42.5kg"]
                // The plates for it, as the server loads them with the lifter's (default) bar and plates.
                try await browser.find("button[data-plates='\(set)']").click()
                let loaded = try await browser.await("[data-set-id='\(set)'] [data-loaded]")
                var text = ""
                for _ in 0..<600 where text.isEmpty {
                    text = try await loaded.text
                    if text.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(text == "10 + 1.25 kg a side on a 20 kg bar", "\(text)")
            } else if remaining == 1, let planned = Int(try await browser.find("[data-set-id='\(set)'] input[name=reps]").attribute("value") ?? "") {
                try await browser.find("[data-set-id='\(set)'] button[aria-label^='Reps'][aria-label*='minus']").click()
                changes = ["--reps", String(planned - 1)]
            }
            try await done.click()
            _ = try await browser.await("[data-set-id='\(set)'].done")
            #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
            completed.append((set, changes))
            if completed.count == 1 {
                let left = Int(try await browser.await("#rest:not([hidden]) #rest-clock").attribute("data-seconds-left") ?? "") ?? 0
                #expect(left > 0, "the rest counts down after a set")
                try await browser.find("#rest-more").click()
                #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
            }
            // Mid-workout, the rest counting: the screen as the docs show it.
            if completed.count == 4, let shots = ProcessInfo.processInfo.environment["REPLEDGER_SCREENSHOTS"] {
                _ = try await browser.execute("window.scrollTo(0, 0)")
                try await browser.screenshot(to: "\(shots)/app-workout-phone.png", maxHeight: 844)
                try await browser.resize(width: 1280, height: 900)
                try await browser.screenshot(to: "\(shots)/app-workout-desktop.png", maxHeight: 900)
                try await browser.resize(width: 390, height: 844)
            }
        }
        try #require(completed.count >= 2, "the day planned \(completed.count) sets")
        try await browser.find("#rest-dismiss").click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        _ = try await browser.await("#rest[hidden]")

        // Finished with a feeling and a note: the session's records shown, each linking to its why.
        _ = try await browser.execute("document.querySelector('#finish-form select[name=feeling]').value = '4'")
        try await browser.find("#finish-form textarea[name=note]").type("Felt strong")
        try await browser.find("#finish").click()
        let record = try await browser.await("#finished:not([hidden]) #finished-records li[data-record] a")
        #expect(try await record.attribute("href")?.hasPrefix("/inspect/why?subject=") == true)
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        #expect(try watch.sync().status == 0)
        let day = try #require(try watch.run(["workout", "show", "last", "--json"]).json?["workoutId"] as? String)
        try await refusedAfterReconnecting(browser, watch: watch)

        // The same workout through the CLI on the twin: the same events, type by type and value by value.
        #expect(try twin.run(["workout", "start", "--program", "active", "--day", "1"]).status == 0)
        let plan = try #require(try twin.run(["workout", "show", "last", "--json"]).json)
        let names = (plan["exercises"] as? [[String: Any]] ?? []).compactMap { $0["exercise"] as? String }
        #expect(names == cards, "the twin's day differs: \(names) against \(cards)")
        #expect(try twin.run(["workout", "superset", "last", names[0], names[1]]).status == 0)
        let planned = (plan["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }.compactMap {
            $0["setId"] as? String
        }
        #expect(planned.count == completed.count)
        for (i, set) in planned.enumerated() {
            #expect(try twin.run(["workout", "complete", "last", set] + completed[i].changes).status == 0)
            #expect(try twin.run(["workout", "rest", "last", "start"]).status == 0)
            if i == 0 { #expect(try twin.run(["workout", "rest", "last", "+15"]).status == 0) }
        }
        #expect(try twin.run(["workout", "rest", "last", "dismiss"]).status == 0)
        #expect(try twin.run(["workout", "finish", "last", "--feeling", "4", "--note", "Felt strong"]).status == 0)

        let twinDay = try #require(try twin.run(["workout", "show", "last", "--json"]).json?["workoutId"] as? String)
        let served = try events(of: watch, workout: day), made = try events(of: twin, workout: twinDay)
        #expect(served.count == made.count && served.count > completed.count * 2, "\(served.count) events served, \(made.count) made")
        for (a, b) in zip(served, made) { #expect(a == b) }
        try await changeSettings(browser, watch: watch)
        try await inPounds(browser, watch: watch)
    }

    /// A lifter who lifts in pounds: the unit chosen in Settings; a set typed in pounds, shown in pounds, and kept in
    /// pounds on the server as `--weight 225lb` keeps it; its plates loaded in pounds.
    func inPounds(_ browser: Browser, watch: Device) async throws {
        _ = try await browser.execute("document.querySelector('#settings select[name=unit]').value = 'lb'")
        try await browser.find("#settings button[type=submit]").click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        try await browser.find("#tab-workout").click()
        try await browser.await("#start:not([hidden])").click()
        _ = try await browser.await("#log:not([hidden])")
        #expect(try await browser.find("#log [data-unit]").text == "lb")
        try await AppSteps.logSet(browser, "Bench Press (Barbell)", kg: "225", reps: "5")
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        let row = try await browser.await("[data-exercise='Bench Press (Barbell)'] [data-set-id].done").text
        #expect(row.contains("225 lb × 5"), "\(row)")
        #expect(try watch.sync().status == 0)
        let shown = try watch.run(["workout", "show", "last"]).stdout
        #expect(shown.contains("225 lb"), "\(shown)")
        try await browser.find("#finish").click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
    }

    /// Settings: the server's values shown; plates that are not numbers refused at the field, nothing sent; a new
    /// bar, plates and rest saved through the outbox and read back by the watch.
    func changeSettings(_ browser: Browser, watch: Device) async throws {
        try await browser.find("#tab-settings").click()
        let rest = try await browser.await("#settings-screen:not([hidden]) #settings input[name=restSeconds]")
        #expect(try await browser.execute("return document.querySelector('#settings input[name=restSeconds]').value") as? String == "90")
        let plates = try await browser.find("#settings input[name=plates]")
        try await plates.clear()
        try await plates.type("20, ten")
        try await browser.find("#settings button[type=submit]").click()
        #expect(try await browser.execute("return document.querySelector('#settings input[name=plates]').validity.valid") as? Bool == false)
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        try await plates.clear()
        try await plates.type("20, 10, 5, 2.5")
        let bar = try await browser.find("#settings input[name=bar]")
        try await bar.clear()
        try await bar.type("15")
        try await rest.clear()
        try await rest.type("150")
        try await browser.find("#settings button[type=submit]").click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        #expect(try watch.sync().status == 0)
        let settings = try #require(try watch.run(["settings", "show", "--json"]).json)
        #expect((settings["rest"] as? [String: Any])?["restSeconds"] as? Int == 150, "\(settings)")
        let loaded = settings["plates"] as? [String: Any]
        #expect(loaded?["bar"] as? Double == 15 && loaded?["plates"] as? [Double] == [20, 10, 5, 2.5], "\(settings)")
    }

    /// A set logged offline into a workout the watch finishes meanwhile: refused once the network returns, shown with
    /// the server's one line, and put into a new workout by the lifter's choice; nothing is dropped.
    func refusedAfterReconnecting(_ browser: Browser, watch: Device) async throws {
        try await browser.find("#start").click()
        _ = try await browser.await("#log:not([hidden])")
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        #expect(try watch.sync().status == 0)
        try await AppSteps.offline(browser, true)
        try await AppSteps.logSet(browser, "Bench Press (Barbell)", kg: "50", reps: "5")
        #expect(try await AppSteps.pending(browser, becoming: 1) == 1)
        #expect(try watch.run(["workout", "finish", "last"]).status == 0)
        #expect(try watch.sync().status == 0)
        try await AppSteps.offline(browser, false)
        let refusal = try await browser.await("#refused [role=alert]").text
        #expect(refusal.contains("finished") && !refusal.contains("\n"), "\(refusal)")
        #expect(try await AppSteps.pending(browser, becoming: 1) == 1)
        try await browser.find("#refused [data-into-new]").click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        _ = try await browser.await("[data-exercise='Bench Press (Barbell)'] [data-set-id]")
        #expect(try watch.sync().status == 0)
        let now = try #require(try watch.run(["workout", "show", "last", "--json"]).json)
        let sets = (now["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }
        #expect(now["status"] as? String == "running" && sets.count == 1 && sets.first?["weightKg"] as? Double == 50, "\(now)")
        try await editChangedElsewhere(browser, watch: watch, set: try #require(sets.first?["setId"] as? String))
        try await browser.find("#finish").click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        #expect(try watch.sync().status == 0)
    }

    /// An edit made offline of a set the watch changed meanwhile: not sent over the watch's, but shown with both
    /// values until the lifter keeps theirs; then the server holds it, and the watch reads it.
    func editChangedElsewhere(_ browser: Browser, watch: Device, set: String) async throws {
        try await AppSteps.offline(browser, true)
        try await browser.await("button[data-edit='\(set)']").click()
        let reps = try await browser.await("[data-set-id='\(set)'] input[name=reps]")
        try await reps.clear()
        try await reps.type("6")
        try await browser.find("button[data-save='\(set)']").click()
        #expect(try await AppSteps.pending(browser, becoming: 1) == 1)
        #expect(try watch.run(["workout", "edit-set", "last", set, "--reps", "4"]).status == 0)
        #expect(try watch.sync().status == 0)
        try await AppSteps.offline(browser, false)
        let conflict = try await browser.await("#refused [data-keep-mine]")
        let line = try await browser.find("#refused [role=alert]").text
        #expect(line.contains("50 kg × 4") && line.contains("50 kg × 5") && line.contains("50 kg × 6"), "\(line)")
        #expect(try await AppSteps.pending(browser, becoming: 1) == 1)
        try await conflict.click()
        #expect(try await AppSteps.pending(browser, becoming: 0) == 0)
        #expect(try watch.sync().status == 0)
        let now = try #require(try watch.run(["workout", "show", "last", "--json"]).json)
        let kept = (now["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }.first
        #expect(kept?["reps"] as? Int == 6, "the lifter kept theirs: \(now)")
    }

    /// A workout's events as `log --touching workout` prints them, each its type and payload with every id numbered
    /// by first appearance and every time left out: what two ledgers that did the same share.
    func events(of device: Device, workout w: String) throws -> [String] {
        let lines = try device.run(["log", "--touching", "workout", w, "--json"]).stdout.split(separator: "\n")
        var ids: [String: Int] = [:]
        let uuid = try Regex(#"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#)
        let time = try Regex(#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#)
        return try lines.map { line in
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let payload = try JSONSerialization.data(withJSONObject: event["payload"] ?? [:], options: [.sortedKeys])
            var text = String(decoding: payload, as: UTF8.self).replacing(time, with: "T")
            let timeless = text
            text = timeless.replacing(uuid) { match in
                let id = String(timeless[match.range])
                if ids[id] == nil { ids[id] = ids.count }
                return "id\(ids[id]!)"
            }
            return "\(event["type"] ?? "?") \(text)"
        }
    }
}

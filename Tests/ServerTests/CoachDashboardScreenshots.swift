import Foundation
import LedgerTestSupport
import Testing

/// The dashboard's screenshots in docs/, from real numbers: a coach with five
/// clients, each one a real export's history (../shared/data/real-exports),
/// who then accepted the coach's program three weeks ago and followed it as
/// closely as each did (every session, two in three, the first week only,
/// most, none), lifting 75% of their own heaviest set where their history
/// has the exercise. Run with `REPLEDGER_SCREENSHOTS=docs swift test --filter
/// CoachDashboardScreenshots`; it checks each page against the API as it goes.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["REPLEDGER_SCREENSHOTS"] != nil && Browser.available))
struct CoachDashboardScreenshots {
    static let clients: [(name: String, file: String, source: String, unit: [String], sessions: [Int])] = [
        ("Miroslav (Strong)", "strong_MiroslavCsonka_strong-workout-analysis.csv", "strong", ["--unit", "kg"], Array(0..<9)),
        ("Dimitris (Hevy)", "hevy_StvrvDimitris_hevy-analyzer.csv", "hevy", [], [0, 1, 3, 4, 6, 7]),
        ("Bilal (FitNotes)", "fitnotes_bilallb_Data-analysis.csv", "fitnotes", [], [0, 1, 2]),
        ("Marta (Strong)", "strong_mlahoz_strong.csv", "strong", [], [0, 1, 2, 3, 5, 6, 8]),
        ("Felipe (Hevy)", "hevy_FelipeRuizM_hevy-visualizer.csv", "hevy", [], []),
    ]

    @Test func screenshotsOfTheRosterAndAClientPage() async throws {
        let out = try #require(ProcessInfo.processInfo.environment["REPLEDGER_SCREENSHOTS"])
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let (server, coach, carl) = try CoachProductTests.coachedServer(cli)
        #expect(
            try carl.run([
                "program", "questionnaire", "--days", "3", "--minutes", "60", "--experience", "intermediate", "--equipment", "barbell",
                "--equipment", "dumbbell", "--equipment", "bench", "--equipment", "cable", "--equipment", "pull-up-bar",
            ]).status == 0)
        #expect(try carl.run(["program", "generate", "--seed", "21"]).status == 0)
        #expect(try carl.sync().status == 0)
        let exports = SharedData.url(.realExports)

        var ids: [String] = []
        for (i, client) in Self.clients.enumerated() {
            let account = try server.createAccount(client.name)
            ids.append(account.id)
            let phone = try Device("client\(i)", cli: cli, token: account.token)
            let imported = try phone.run(
                ["import", client.source, exports.appendingPathComponent(client.file).path, "--timezone", "UTC"] + client.unit)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(try phone.sync(server, account: account.id).status == 0)
            let invite = try #require(try carl.run(["coach", "invite", "--note", client.name, "--json"]).json?["code"] as? String)
            #expect(try phone.run(["coach", "accept", invite]).status == 0)
            let offer = try carl.id(["coach", "assign", account.id, "--program", "active"], "assignmentId")
            #expect(try carl.sync().status == 0)
            #expect(try phone.run(["coach", "accept-assignment", offer, "--at", CoachProductTests.daysAgo(21)]).status == 0)
            // Their own best weights, from their own records.
            let records = try #require(try phone.run(["prs", "--json"]).json?["exercises"] as? [[String: Any]])
            var best: [String: Double] = [:]
            for r in records { if let id = r["exerciseId"] as? String, let kg = (r["heaviestKg"] as? NSNumber)?.doubleValue { best[id] = kg } }
            for session in client.sessions {
                let at = 20.5 - Double(session) * 7.0 / 3.0
                let w = try phone.id(
                    ["workout", "start", "--program", "active", "--day", String(session % 3 + 1), "--at", CoachProductTests.daysAgo(at)], "workoutId")
                let shown = try #require(try phone.run(["workout", "show", w, "--json"]).json?["exercises"] as? [[String: Any]])
                var minute = 0.0
                for exercise in shown {
                    let kg = best[exercise["exerciseId"] as? String ?? ""].map { (($0 * 0.75) / 2.5).rounded() * 2.5 }
                    for set in exercise["sets"] as? [[String: Any]] ?? [] {
                        minute += 3
                        let weight = kg.map { ["--weight", "\($0)kg"] } ?? []
                        let id = set["setId"] as? String ?? ""
                        #expect(
                            try phone.run(["workout", "complete", w, id, "--at", CoachProductTests.daysAgo(at - minute / 1440)] + weight).status == 0)
                    }
                }
                try phone.run(["workout", "finish", w, "--at", CoachProductTests.daysAgo(at - (minute + 5) / 1440)])
            }
            #expect(try phone.sync().status == 0)
        }

        let browser = try await Browser(width: 1200, height: 900)
        do {
            try await browser.open(server.base + "/coach/sign-in")
            try await browser.find("#token").type(coach.token)
            try await browser.find("#sign-in").click()
            let rows = try await browser.all("tr[data-client]")
            #expect(rows.count == 5)
            let api = try #require(try await server.get("/v1/coach/clients", token: coach.token).json?["clients"] as? [[String: Any]])
            #expect(try await rows.asyncMap { try await $0.attribute("data-client") ?? "" } == api.map { $0["accountId"] as? String ?? "" })
            try await browser.screenshot(to: out + "/coach-roster.png")
            try await browser.open(server.base + "/coach/clients/\(ids[0])")
            try await browser.find("#note").type("Great three weeks: every session done. Add 2.5 kg to the presses next week.")
            try await browser.find("#add-note").click()
            _ = try await browser.await("ul.notes li")
            try await browser.screenshot(to: out + "/coach-client.png")
            try await browser.resize(width: 390, height: 844)
            try await browser.open(server.base + "/coach")
            try await browser.screenshot(to: out + "/coach-roster-phone.png")
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }
}

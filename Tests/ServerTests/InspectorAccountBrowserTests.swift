import Foundation
import LedgerTestSupport
import Testing

/// The inspector under a real `ledger serve` in a real browser (headless
/// Chromium through chromedriver): a coach signs in with a token, reads a
/// client's log by grant (stepping its As-of view with the keyboard and
/// following a record to its events, every link staying within that client),
/// is refused a log without a grant (403), and signs out.
@Suite(
    .serialized, .needsSharedData(.realExports), .enabled(if: Browser.available || Browser.required, "chromium and chromedriver are not installed"),
    .disabled(if: ServerProcess.onPostgres, "the pages come from the queries the HTTP suites run on PostgreSQL; sessions are in memory"))
struct InspectorAccountBrowserTests {
    @Test func aCoachReadsAClientsLogByGrantAndIsRefusedAnother() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let cast = try InspectorAccessTests.cast(cli)
        let (server, coach, marta, cy) = (cast.server, cast.coach, cast.marta, cast.cy)
        let head = try #require(try await server.get("/v1/accounts/\(marta.id)/verify", token: marta.token).json?["events"] as? Int)

        let browser = try await Browser()
        do {
            try await walkThrough(browser, server: server, coach: coach, client: marta.id, other: cy.id, head: head)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    func walkThrough(_ browser: Browser, server: ServerProcess, coach: ServerProcess.Account, client: String, other: String, head: Int) async throws {
        let shots = ProcessInfo.processInfo.environment["REPLEDGER_SCREENSHOTS"]
        let base = server.base + "/inspect/clients/\(client)"
        // Signed out, the client's log sends the browser to sign in.
        try await browser.open(base + "/log")
        #expect(try await browser.url(becoming: server.base + "/inspect/sign-in") == server.base + "/inspect/sign-in")
        try await browser.find("#token").type(coach.token)
        try await browser.find("#sign-in").click()
        #expect(try await browser.url(becoming: server.base + "/inspect/log") == server.base + "/inspect/log")
        #expect(!(try await browser.url).contains(coach.token))
        let session = try #require(try await browser.cookies().first { $0["name"] as? String == "rl_inspect" })
        #expect(session["httpOnly"] as? Bool == true && session["sameSite"] as? String == "Strict")

        // The client's log, said to be read by grant; a row leads to the As-of view within the client's pages.
        let n = head / 2
        try await browser.open(base + "/log?from=\(n)")
        #expect(try await browser.await("#reader").text == "Marta’s log, by grant")
        try await browser.await("tr[data-position=\"\(n)\"] a").click()
        #expect(try await browser.url(becoming: base + "/at/\(n)") == base + "/at/\(n)")
        try await browser.press("\u{E014}")
        #expect(try await browser.url(becoming: base + "/at/\(n + 1)") == base + "/at/\(n + 1)")
        if let shots { try await browser.screenshot(to: "\(shots)/inspector-coach.png", maxHeight: 1100) }

        // A record's figure leads to its events, proved to the client's head.
        let record = try await browser.find("tr[data-exercise] a[data-why]")
        try await record.click()
        _ = try await browser.await("#proof")
        #expect(try await browser.url.hasPrefix(base + "/why?"))
        #expect(try await browser.find("#proof").attribute("class")?.contains("ok") == true)
        #expect(try await !browser.all("tr[data-position]").isEmpty)

        // Another account's log, without a grant: refused, and nothing of it shown.
        try await browser.open(server.base + "/inspect/clients/\(other)/log")
        #expect(try await browser.await("h1").text == "Not yours to see")
        #expect(try await browser.all("tr[data-position]").isEmpty)

        // Signing out ends the session.
        try await browser.open(server.base + "/inspect/log")
        try await browser.await("#sign-out").click()
        #expect(try await browser.url(becoming: server.base + "/inspect/sign-in") == server.base + "/inspect/sign-in")
        try await browser.open(base + "/log")
        #expect(try await browser.url(becoming: server.base + "/inspect/sign-in") == server.base + "/inspect/sign-in")
    }
}

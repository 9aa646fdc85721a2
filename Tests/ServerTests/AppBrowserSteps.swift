import Foundation
import LedgerTestSupport
import Testing

/// Steps the lifter's app's browser tests share: signing up, reading the pending count, cutting the network.
enum AppSteps {
    /// Opens `/app`, is sent to the sign-in page, signs up with the code mailed to `email`, lands on `/account`.
    static func signUp(_ browser: Browser, server: ServerProcess, mail: CapturedMail, email: String) async throws {
        let base = server.base
        try await browser.open(base + "/app")
        #expect(try await browser.url(becoming: base + "/account/sign-in") == base + "/account/sign-in")
        try await browser.find("#email").type(email)
        try await browser.find("#send-code").click()
        _ = try await browser.await("#code")
        let code = try #require(try mail.code(to: email), "no code was mailed")
        try await browser.find("#code").type(code)
        try await browser.find("#verify").click()
        #expect(try await browser.url(becoming: base + "/account") == base + "/account")
    }

    /// Waits (60 s at most) until the page's pending count is `n` → the count it ends at.
    static func pending(_ browser: Browser, becoming n: Int) async throws -> Int {
        let deadline = Date().addingTimeInterval(60)
        var now = -1
        while Date() < deadline {
            now = Int(try await browser.await("#pending").attribute("data-pending") ?? "") ?? -1
            if now == n { return now }
            try await Task.sleep(for: .milliseconds(100))
        }
        return now
    }

    static func offline(_ browser: Browser, _ cut: Bool) async throws {
        try await browser.command(.POST, "/goog/cdp/execute", ["cmd": "Network.enable", "params": [:] as [String: Any]])
        try await browser.command(
            .POST, "/goog/cdp/execute",
            ["cmd": "Network.emulateNetworkConditions", "params": ["offline": cut, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1]])
    }

    /// Logs a set through the workout screen's form.
    static func logSet(_ browser: Browser, _ exercise: String, kg: String, reps: String) async throws {
        for (field, value) in [("exercise", exercise), ("weight", kg), ("reps", reps)] {
            let input = try await browser.await("#log input[name=\(field)]")
            try await input.clear()
            try await input.type(value)
        }
        try await browser.find("#log button[type=submit]").click()
    }
}

import Foundation
import RepLedgerAccounts
import RepLedgerService
import RepLedgerWeb
import Testing

/// The dashboard's sessions and pages: a session is a secret the browser
/// keeps in an HttpOnly, SameSite=Strict cookie; what a page shows of a name
/// or a note is escaped; every form carries the session's CSRF token.
@Suite struct CoachWebTests {
    /// A dashboard over an empty server in a temporary directory.
    static func web(secureCookies: Bool) throws -> (CoachWeb, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-web-\(UUID().uuidString)")
        let keys = try AccountKeyStore(directory: folder.appendingPathComponent("keys").path, create: true)
        let api = LedgerAPI(storage: try SQLiteServerStorage(directory: folder.path, keys: keys))
        return (CoachWeb(api: api, secureCookies: secureCookies, blocking: { try $0() }), folder)
    }

    @Test func aSessionIsFoundByItsSecretAndEndsWhenClosed() {
        let sessions = CoachWebSessions()
        let tokenHash = Array(repeating: UInt8(7), count: 32)
        let (id, csrf) = sessions.open(tokenHash: tokenHash, account: "a")
        #expect(id.count == 64 && csrf.count == 64 && id != csrf)
        #expect(sessions.session(id)?.tokenHash == tokenHash && sessions.session(id)?.csrf == csrf)
        #expect(sessions.session(CoachWebSessions.random()) == nil)
        sessions.close(id)
        #expect(sessions.session(id) == nil)
        let other = String(csrf.dropLast()) + (csrf.hasSuffix("0") ? "1" : "0")
        #expect(CoachWebSessions.same(csrf, csrf) && !CoachWebSessions.same(csrf, other) && !CoachWebSessions.same(csrf, ""))
    }

    @Test func throwAwayAccountsFillingTheSessionsSignOutOnlyEachOther() {
        let sessions = CoachWebSessions(limit: 100)
        let hash = Array(repeating: UInt8(1), count: 32)
        // Three people signed in, then throw-away accounts sign in at their cap, ten times the room there is.
        let people = ["lina", "marta", "cy"].map { sessions.open(tokenHash: hash, account: $0).id }
        for account in 0..<64 {
            for _ in 0..<CoachWebSessions.perAccount { _ = sessions.open(tokenHash: hash, account: "throwaway\(account)") }
        }
        // Only the fullest accounts gave sessions up: everyone signed in still is, and the latest sign-in too.
        #expect(people.allSatisfy { sessions.session($0) != nil })
        let latest = sessions.open(tokenHash: hash, account: "throwaway99").id
        #expect(sessions.session(latest) != nil)
        // One account past its own cap ends its own oldest, and no one else's.
        let first = sessions.open(tokenHash: hash, account: "lina2").id
        for _ in 0..<CoachWebSessions.perAccount { _ = sessions.open(tokenHash: hash, account: "lina2") }
        #expect(sessions.session(first) == nil && people.allSatisfy { sessions.session($0) != nil })
    }

    @Test func cookiesAreHttpOnlyStrictAndSecureOffLoopback() throws {
        let (open, folder) = try Self.web(secureCookies: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cookie = open.cookie(CoachWeb.sessionCookie, "abc", maxAge: 60)
        #expect(cookie == "rl_session=abc; Path=/coach; Max-Age=60; HttpOnly; SameSite=Strict; Secure")
        let (loopback, other) = try Self.web(secureCookies: false)
        defer { try? FileManager.default.removeItem(at: other) }
        #expect(!loopback.cookie(CoachWeb.sessionCookie, "abc", maxAge: 60).contains("Secure"))
    }

    @Test func pagesEscapeWhatTheyShowAndFormsCarryTheToken() {
        let page = CoachPages.message("Not <b>recorded</b>", #"the note "<script>alert(1)</script>" is too long"#, csrf: "c5rf")
        #expect(!page.contains("<script>") && page.contains("&lt;script&gt;"))
        #expect(!page.contains("<b>recorded"))
        #expect(page.contains(#"<input type="hidden" name="csrf" value="c5rf">"#))
        #expect(!CoachPages.message("Signed out", "Bye", csrf: nil).contains(#"name="csrf""#))
    }
}

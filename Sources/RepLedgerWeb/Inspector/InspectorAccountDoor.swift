import Foundation
import Hummingbird
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerService

/// `ledger serve`'s way into the inspector: an account's owner signs in with
/// the account's token and reads their own log under `/inspect`; a coach reads
/// a client's under `/inspect/clients/ID` while the client's grant is in
/// force (the API's own `LedgerAPI.authorize`, asked on every request, so a
/// revoked grant or token ends access at once). Sessions are the coach
/// dashboard's kind (`CoachWebSessions`: hashed, `HttpOnly`,
/// `SameSite=Strict`, a CSRF token per session), kept apart from it.
package final class InspectorAccountDoor: InspectorDoor, @unchecked Sendable {
    package let api: LedgerAPI
    package let sessions = CoachWebSessions()
    private let lock = NSLock()
    /// Each account's kept folds and counts, for the accounts read lately.
    private var ledgers: [String: InspectedLedger] = [:]
    static let keptLedgers = 32

    package init(api: LedgerAPI) { self.api = api }

    package var signIn: String? { InspectorWeb.root + "/sign-in" }

    package func reader(cookies: [String: String]) -> PageReader? {
        guard let id = cookies[InspectorWeb.sessionCookie], let session = sessions.session(id) else { return nil }
        return PageReader(account: session.account, key: StoredToken.id(of: session.tokenHash))
    }

    package func seat(cookies: [String: String], client: String?) throws -> InspectorSeat {
        guard let id = cookies[InspectorWeb.sessionCookie], let session = sessions.session(id) else { throw Self.signedOut }
        // The token that signed in must still be valid: a revoked token ends the session.
        guard let caller = try api.accounts.caller(tokenHash: session.tokenHash), !api.accounts.keys.isErased(caller.account.accountId) else {
            sessions.close(id)
            throw Self.signedOut
        }
        let account = (client ?? caller.account.accountId).lowercased()
        _ = try api.authorize(caller, account: account, write: false)
        let frame: InspectorPages.Frame
        if let client, account != caller.account.accountId {
            let name = try api.accounts.account(account).map { api.accounts.name(of: $0) } ?? client
            frame = .init(
                base: "\(InspectorWeb.root)/clients/\(account)", assets: InspectorWeb.root, reader: "\(name)’s log, by grant", signOut: session.csrf)
        } else {
            frame = .init(base: InspectorWeb.root, reader: "\(api.accounts.name(of: caller.account))’s log", signOut: session.csrf)
        }
        return InspectorSeat(ledger: ledger(of: account), csrf: session.csrf, frame: frame)
    }

    static let signedOut = APIError(status: 401, code: "unauthorized", message: "sign in with your account's token")

    private func ledger(of account: String) -> InspectedLedger {
        lock.withLock {
            if let kept = ledgers[account] { return kept }
            if ledgers.count >= Self.keptLedgers { ledgers.removeAll() }
            // Read on a connection of its own, read-only, outside the account's lock: a heavy page never
            // holds the log while the account's pushes wait (the store's own locking keeps both correct).
            let reader = LogReader(storage: api.logs.storage, account: account)
            let made = InspectedLedger { body in try body(try reader.store()) }
            ledgers[account] = made
            return made
        }
    }
}

extension InspectorWeb {
    static let signInCookie = "rl_inspect_signin"

    /// `sign-in` (a page and its form) and `sign-out`, for `ledger serve`.
    package func addSignInRoutes<Context: RequestContext>(to group: RouterGroup<Context>, door: InspectorAccountDoor) {
        group.get("sign-in") { _, _ in signInPage() }
        group.post("sign-in") { request, _ in
            let form = try await CoachWeb.form(request)
            // The form's token must be the one this browser's cookie holds: another site's form has neither.
            guard let sent = form["csrf"], let expected = CoachWeb.cookies(request)[Self.signInCookie], CoachWebSessions.same(sent, expected) else {
                return signInPage(error: "This form has expired: sign in again.", status: 403)
            }
            let token = (form["token"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return try await blocking { [self] in
                guard !token.isEmpty, token.utf8.count < 512, let caller = try door.api.accounts.caller(token: token),
                    !door.api.accounts.keys.isErased(caller.account.accountId)
                else { return signInPage(error: "That token is not valid on this server.", status: 401) }
                let (id, _) = door.sessions.open(tokenHash: AccountDirectory.hash(token), account: caller.account.accountId)
                var response = CoachWeb.redirect(Self.root + "/log")
                response.headers.append(.init(name: .setCookie, value: cookie(Self.sessionCookie, id, maxAge: 12 * 3600)))
                response.headers.append(.init(name: .setCookie, value: cookie(Self.signInCookie, "", path: Self.root + "/sign-in", maxAge: 0)))
                return response
            }
        }
        group.post("sign-out") { request, _ in
            let form = try await CoachWeb.form(request)
            if let id = CoachWeb.cookies(request)[Self.sessionCookie], let session = door.sessions.session(id) {
                guard let sent = form["csrf"], CoachWebSessions.same(sent, session.csrf) else {
                    return html(
                        InspectorPages.message(
                            "Form expired", "This form has expired: reload the page and send it again.", frame: .init(base: Self.root)),
                        status: 403)
                }
                door.sessions.close(id)
            }
            var response = CoachWeb.redirect(Self.root + "/sign-in")
            response.headers.append(.init(name: .setCookie, value: cookie(Self.sessionCookie, "", maxAge: 0)))
            return response
        }
    }

    func signInPage(error: String? = nil, status: Int = 200) -> Response {
        // A fresh token in a cookie and in the form: a post without both is refused.
        let token = CoachWebSessions.random()
        var response = html(InspectorPages.signIn(csrf: token, error: error, action: Self.root + "/sign-in"), status: status)
        response.headers.append(.init(name: .setCookie, value: cookie(Self.signInCookie, token, path: Self.root + "/sign-in", maxAge: 3600)))
        return response
    }
}

/// An account's log opened for reading only, on first use, and kept with the inspector's ledger
/// (used under its lock, one read at a time).
final class LogReader: @unchecked Sendable {
    let storage: any ServerStorage
    let account: String
    private var opened: (any EventStore)?

    init(storage: any ServerStorage, account: String) {
        self.storage = storage
        self.account = account
    }

    func store() throws -> any EventStore {
        if let opened { return opened }
        let made = try storage.reader(for: account)
        // An account with no log yet reads as empty, and is looked for again next time.
        if !(made is InMemoryEventStore) { opened = made }
        return made
    }
}

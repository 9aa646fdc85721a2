import Foundation
import Hummingbird
import RepLedgerService

/// `ledger inspect`'s way in: one ledger, and the printed address's one-time
/// code traded for a session cookie (`InspectorSessions`).
package struct InspectorCodeDoor: InspectorDoor {
    package let ledger: InspectedLedger
    package let sessions = InspectorSessions()

    package init(ledger: InspectedLedger) { self.ledger = ledger }

    package var signIn: String? { nil }

    package func seat(cookies: [String: String], client: String?) throws -> InspectorSeat {
        guard let id = cookies[InspectorWeb.sessionCookie], let csrf = sessions.csrf(id) else {
            throw APIError(
                status: 401, code: "unauthorized", message: "open the address `ledger inspect` printed (its code works once), or run it again")
        }
        return InspectorSeat(ledger: ledger, csrf: csrf, frame: .init(base: InspectorWeb.root))
    }
}

extension InspectorWeb {
    /// `open?code=…` (`ledger inspect`): a good code becomes a session cookie and a redirect to the log;
    /// a spent one is refused (a browser already signed in goes on to the log).
    package func addOpenRoute<Context: RequestContext>(to group: RouterGroup<Context>, door: InspectorCodeDoor) {
        group.get("open") { request, _ in
            let code = Self.parameters(request)["code"] ?? ""
            if let id = door.sessions.open(code: code) {
                var response = CoachWeb.redirect(Self.root + "/log")
                response.headers.append(.init(name: .setCookie, value: cookie(Self.sessionCookie, id, maxAge: 12 * 3600)))
                return response
            }
            if let id = CoachWeb.cookies(request)[Self.sessionCookie], door.sessions.csrf(id) != nil { return CoachWeb.redirect(Self.root + "/log") }
            return html(
                InspectorPages.message(
                    "Code used or expired", "This address works once, for 15 minutes: run `ledger inspect` again for a new one.",
                    frame: .init(base: Self.root)),
                status: 401)
        }
    }
}
